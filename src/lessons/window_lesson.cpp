// The lesson on a broker that dedups (idemlab lesson N --nats URL): NATS JetStream drops a
// producer's copy of a request that comes within its duplicate window, and nothing else. A copy
// after the window, and a redelivery to a consumer that died after its commit, move the money
// again unless a guard kept with the money stops them. Each run publishes to a stream of its
// own on the server; the balances and the audit come from the ledger.
#include "lessons/steps.h"

namespace idemlab {

namespace {

// Four requests on the lesson's stream, whose duplicate window is one second.
std::string published(std::string_view prefix, std::string_view fault = "") {
  std::string out = "publish --broker " + std::string(kNatsPlaceholder) + " --queue " +
                    std::string(kQueuePlaceholder) +
                    " --duplicate-window-ms 1000 --requests 4 --prefix " + std::string(prefix);
  if (!fault.empty()) out += " --fault " + std::string(fault);
  return out;
}

std::string consumed(std::string_view strategy, std::string_view extra = "") {
  std::string out = "consume --broker " + std::string(kNatsPlaceholder) + " --queue " +
                    std::string(kQueuePlaceholder) + " --db l.db --strategy " +
                    std::string(strategy) + " --ack double --ack-wait-ms 1000";
  if (!extra.empty()) out += " " + std::string(extra);
  return out;
}

}  // namespace

Lesson broker_dedups_for_a_window() {
  return {
      0,
      "the-broker-dedups-for-a-window",
      "The broker dedups for a window",
      "001 and 003 §1-2 (MQ duplicates), with NATS JetStream's message ids",
      "JetStream drops a publish whose Nats-Msg-Id it has already stored within the stream's "
      "duplicate window, and says so in its publish ack; its documentation calls this, with "
      "the double ack, exactly-once. Here the business key is the message id, the window one "
      "second, and the consumer is naive: no guard at all. $NATS stands for the server given "
      "with --nats.",
      {step("", "init --db l.db"),
       step("The confirm of the second publish is lost, and the producer publishes it again "
            "at once: inside the window, the stream drops the copy.",
            published("a", "confirm-lost:nth=2")),
       step("Each request moves once, with no guard.", consumed("naive", "--until-idle 500")),
       step("Now the producer retries 1.5 s later (a long partition, a slow retry policy): "
            "after the window, the copy is a new message.",
            published("b", "confirm-lost:nth=2,delay-ms=1500")),
       step("b-2 moves twice.", consumed("naive", "--until-idle 500")),
       step("The consumer commits its second delivery and dies before its double ack "
            "(AckSync): the ack never left.",
            published("c")),
       step("", consumed("naive", "--until-idle 500 --fault crash:after=commit,nth=2"), 137),
       step("Once ack_wait (1 s) has run out, the stream delivers it again, window or not: "
            "c-2 moves twice.",
            consumed("naive", "--until-idle 4000")),
       step("The same two accidents under dedup-table, the guard kept with the money.",
            published("d", "confirm-lost:nth=2,delay-ms=1500")),
       step("", consumed("dedup-table", "--until-idle 500 --fault crash:after=commit,nth=4"), 137),
       step("", consumed("dedup-table", "--until-idle 4000")),
       step("Requests a: once each. b-2 and c-2: twice. d: once each, the late copy and the "
            "redelivery replayed.",
            "history --db l.db"),
       step("The audit, from the journal, names the two that moved twice.", "audit --db l.db", 7)},
      "A broker's dedup is a window on the producer's retries, not a guard: a retry after it, "
      "and every redelivery, reach the consumer. Keep the guard with the money, keyed by the "
      "request; the window then only saves work."};
}

}  // namespace idemlab
