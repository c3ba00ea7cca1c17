// The lessons, in the references' order. The per-strategy lessons are built from each
// strategy's own table of pitfalls, so they show exactly what `explain` lists.
#include <fmt/format.h>

#include "lessons/lesson.h"
#include "lessons/steps.h"
#include "strategies/strategy.h"

namespace idemlab {

namespace {

// "idemlab simulate ..." -> "simulate ...".
std::string without_program(const std::string& command) {
  return command.substr(command.find(' ') + 1);
}

Lesson timeout_is_unknown() {
  return {0,
          "timeout-is-unknown",
          "Why idempotence: a timeout is unknown",
          "000 §2-3, 004 §2-3",
          "A call ends in success, failure or a timeout, and a timeout says nothing: the money "
          "may have moved and only the answer was lost. A client that retries then moves it "
          "again, unless the endpoint is idempotent.",
          {step("A ledger: alice, bob and carol with 1000.00 each.", "init --db l.db"),
           step("naive moves the money, but the answer is lost: the client sees a timeout (75).",
                "naive --db l.db --biz-seq t1 --from alice --to bob --amount 10 "
                "--fault response-lost",
                75),
           step("The client retries, as it must.",
                "naive --db l.db --biz-seq t1 --from alice --to bob --amount 10"),
           step("The journal shows the transfer twice.", "audit --db l.db", 7),
           step("The same with select-insert: the retry finds the first attempt's record.",
                "select-insert --db l.db --biz-seq t2 --from alice --to bob --amount 10 "
                "--fault response-lost",
                75),
           step("Its retry gets the first answer back, marked as a replay.",
                "select-insert --db l.db --biz-seq t2 --from alice --to bob --amount 10")},
          "Retrying is only safe against an idempotent endpoint; the same request id on every "
          "retry is what lets the server know it is a repeat."};
}

Lesson query_or_retry() {
  return {0,
          "query-or-retry",
          "Query first, or retry",
          "000 §3, 004 §3",
          "The first remedy: after a timeout, ask the server what happened before retrying.",
          {step("A transfer whose answer is lost.", "init --db l.db"),
           step("",
                "naive --db l.db --biz-seq q1 --from alice --to bob --amount 5 "
                "--fault response-lost",
                75),
           step("Asking tells the client it succeeded: no retry needed.",
                "query --db l.db --biz-seq q1"),
           step("In a simulation, asking first rescues even naive from lost answers...",
                "simulate --strategy naive --scenario response-lost --requests 200 "
                "--retry attempts=5,timeout-ms=300,query=yes"),
           step("...but not from a slow server: the query comes before the first attempt has "
                "written anything, answers not found, and the retry moves the money again.",
                "simulate --strategy naive --scenario query-first-slow --requests 200")},
          "Query-first helps only when the server has already written its record; a slow "
          "server or a redelivering queue needs idempotence instead."};
}

Lesson unique_id() {
  return {0,
          "unique-id",
          "The global unique id",
          "000 §4.1, 004 §4.1",
          "Every scheme keys on the request's id. A client that makes a new id for a retry "
          "defeats every guard on the server.",
          {step("Each retry with a fresh key: every strategy moves money twice.",
                "compare --scenario retry-new-key --requests 200 "
                "--strategies select-insert,dedup-table,token")},
          "Generate the id once per operation, before the first attempt, and send it with "
          "every retry."};
}

// Each strategy's lesson, titled as the lessons around it are, not by its one-line help.
std::string lesson_title(std::string_view strategy) {
  static constexpr std::pair<std::string_view, std::string_view> kTitles[] = {
      {"select-insert", "Select, then insert: the unique key behind the check"},
      {"direct-insert", "Insert first: the unique key is the check"},
      {"state-machine", "A state machine: only one attempt moves the state"},
      {"dedup-table", "A dedup table: the request's key apart from the business row"},
      {"token", "A one-time token: taken once, whatever the retries"},
      {"select-for-update", "SELECT ... FOR UPDATE: check and act under one lock"},
      {"optimistic-lock", "An optimistic lock: the version decides"},
      {"lock-table", "A lock table: a distributed lock, and a record behind it"}};
  for (const auto& [name, title] : kTitles)
    if (name == strategy) return std::string(title);
  return std::string(strategy);
}

Lesson strategy_lesson(const StrategyInfo& info) {
  Lesson lesson{0,
                std::string(info.name),
                lesson_title(info.name),
                "000 and 004 §5",
                fmt::format("It protects against {}. How it works: {}", info.protects, info.how),
                {},
                ""};
  const PitfallInfo& main = info.pitfalls.front();
  // The main pitfall's command without --pitfall: the guard under the same fault.
  const std::string guarded = without_program(pitfall_command(info, main));
  const size_t flag = guarded.find(" --pitfall");
  const std::string safe = guarded.substr(0, flag) + guarded.substr(guarded.find(' ', flag + 1));
  lesson.steps.push_back(step(fmt::format("The guard, under the fault that breaks its main "
                                          "pitfall ({}): nothing moves twice, nobody is lied to.",
                                          main.exposed_by),
                              safe + " --requests 200"));
  for (const PitfallInfo& pitfall : info.pitfalls)
    lesson.steps.push_back(
        step(fmt::format("--pitfall={} ({}): {}; then {}. Watch '{}'.", pitfall_name(pitfall.id),
                         pitfall.reference, pitfall.removes, pitfall.goes_wrong, pitfall.verdict),
             without_program(pitfall_command(info, pitfall)) + " --requests 200"));
  lesson.takeaway =
      "Every pitfall removes one guard; the fault that exposes it is named in "
      "idemlab explain " +
      std::string(info.name) + ".";
  return lesson;
}

Lesson dedup_is_not_idempotence() {
  return {0,
          "same-answer",
          "Dedup is not idempotence: the same answer to every repeat",
          "004 §1; 000 and 004 §5.1, 5.2, 5.4, 5.8",
          "Blocking a repeat is not enough: the repeat must get the first attempt's answer. "
          "\"Catch the conflict, return success\" lies when the first attempt was rejected, "
          "crashed or is still running.",
          {step("Twins, overdrawn requests and crashes: the success-on-duplicate rows lie.",
                "compare --scenario lie-on-duplicate --requests 200 "
                "--strategies select-insert,dedup-table --with-pitfalls")},
          "Store the answer with the record and replay it; a rejection replays as a rejection."};
}

Lesson natural_idempotence() {
  return {0,
          "natural-idempotence",
          "Naturally idempotent operations: an absolute SET against a relative increment",
          "002 §3; 003 §2",
          "Some writes need no guard. Setting a value absolutely (UPDATE ... SET limit = 50) "
          "leaves the same state however often it runs; adding to it (SET limit = limit + 10) "
          "does not. Here the value is alice's per-transfer limit, which transfers obey.",
          {step("A ledger.", "init --db l.db"),
           step("Set alice's limit to 50.00. The change commits, but its answer is lost.",
                "limit --db l.db --account alice --set 50 --fault response-lost", 75),
           step("The retry sets it to 50.00 again: the same state, nothing to guard.",
                "limit --db l.db --account alice --set 50"),
           step("Now raise it by 10.00, meaning 60.00. Again the answer is lost.",
                "limit --db l.db --account alice --raise 10 --fault response-lost", 75),
           step("The retry raises it again: 70.00, not 60.00.",
                "limit --db l.db --account alice --raise 10"),
           step("So a transfer of 65.00, which 60.00 would have refused, goes through.",
                "select-insert --db l.db --biz-seq n1 --from alice --to bob --amount 65"),
           step("With the limit set absolutely, the same transfer is refused (over_limit).",
                "limit --db l.db --account alice --set 60"),
           step("", "select-insert --db l.db --biz-seq n2 --from alice --to bob --amount 65", 3)},
          "Reads, deletes and absolute sets are idempotent by nature; an increment, an insert "
          "or a transfer needs a request id and one of the guards of lessons 4 to 11."};
}

Lesson http_methods() {
  return {0,
          "http-methods",
          "HTTP methods: GET, PUT and DELETE against POST",
          "004 §6; 001 §2",
          "HTTP promises that GET, PUT and DELETE are idempotent and makes no promise for POST: "
          "each POST creates a new resource. idemlab http serves these methods on the ledger.",
          {step("A ledger.", "init --db l.db"),
           step("GET reads and changes nothing.", "http --db l.db GET /accounts/alice"),
           step("PUT sets a limit; its answer is lost.",
                "http --db l.db PUT /accounts/alice/limit --data amount=50.00 "
                "--fault response-lost",
                75),
           step("Repeating the PUT leaves the same limit.",
                "http --db l.db PUT /accounts/alice/limit --data amount=50.00"),
           step("DELETE removes it...", "http --db l.db DELETE /accounts/alice/limit"),
           step("...and a repeat finds nothing to remove (404): a different answer, the same "
                "state.",
                "http --db l.db DELETE /accounts/alice/limit", 9),
           step("POST creates a transfer; its answer is lost.",
                "http --db l.db POST /transfers --data from=alice&to=bob&amount=10.00 "
                "--fault response-lost",
                75),
           step("The retried POST creates a second transfer, with an id of its own.",
                "http --db l.db POST /transfers --data from=alice&to=bob&amount=10.00"),
           step("alice paid 20.00, and no audit can tell: these are two requests.",
                "http --db l.db GET /accounts/alice"),
           step("With an Idempotency-Key the POST names its transfer; its answer is lost.",
                "http --db l.db POST /transfers --data from=alice&to=bob&amount=10.00 "
                "--idempotency-key k1 --fault response-lost",
                75),
           step("The retry with the same key is a replay: nothing moves again.",
                "http --db l.db POST /transfers --data from=alice&to=bob&amount=10.00 "
                "--idempotency-key k1"),
           step("", "http --db l.db GET /accounts/alice")},
          "GET, PUT and DELETE act on a resource the client names, so repeating them is safe. "
          "POST lets the server name it: make it idempotent with a key the client sends on "
          "every retry."};
}

Lesson redelivery() {
  return {0,
          "mq-redelivery",
          "MQ redelivery",
          "001; 003",
          "A queue redelivers a message whose ack was lost. The consumer must be idempotent.",
          {step("Redeliveries against every strategy: only naive and an upsert move twice.",
                "compare --scenario queue-redelivery --requests 200 --with-pitfalls "
                "--strategies naive,direct-insert,dedup-table")},
          "Redelivery is a retry the client never decided on: the same guards apply."};
}

Lesson interleavings() {
  return {0,
          "every-interleaving",
          "Every interleaving, and crashes between steps",
          "000 §5.6, 5.7; 003",
          "A simulation samples schedules; explore tries them all for two twins, and with "
          "--crash kills each attempt after each statement.",
          {step("ABA: the version goes 0→1 and back, so a stale twin's claim matches.",
                "explore --strategy optimistic-lock --pitfall"),
           step("Separate transactions: a crash between them leaves a request stuck for good.",
                "explore --strategy dedup-table --pitfall --crash")},
          "A guard is only as good as the worst interleaving and the worst crash point."};
}

std::vector<Lesson> build() {
  std::vector<Lesson> out{timeout_is_unknown(), query_or_retry(), unique_id()};
  for (const Strategy* strategy : all_strategies())
    if (!strategy->info().pitfalls.empty()) out.push_back(strategy_lesson(strategy->info()));
  out.push_back(dedup_is_not_idempotence());
  out.push_back(natural_idempotence());
  // Each transport's lesson on real clients and a real broker follows the references' own.
  out.push_back(http_methods());
  out.push_back(client_retries_over_http());
  out.push_back(redelivery());
  out.push_back(queue_redelivers());
  out.push_back(offset_is_not_a_key());
  out.push_back(interleavings());
  out.push_back(one_strategy_three_engines());
  out.push_back(standby_has_not_seen_it());
  out.push_back(failover_forgets_answer());
  out.push_back(failover_forgets_token());
  out.push_back(lock_needs_fence());
  out.push_back(lease_is_not_a_lock());
  out.push_back(broker_dedups_for_a_window());
  out.push_back(ha_manager_failover());
  for (size_t i = 0; i < out.size(); ++i) out[i].number = static_cast<int>(i) + 1;
  return out;
}

}  // namespace

const std::vector<Lesson>& all_lessons() {
  static const std::vector<Lesson> kLessons = build();
  return kLessons;
}

const Lesson* find_lesson(const std::string& number_or_name) {
  for (const Lesson& lesson : all_lessons())
    if (lesson.name == number_or_name || std::to_string(lesson.number) == number_or_name)
      return &lesson;
  return nullptr;
}

}  // namespace idemlab
