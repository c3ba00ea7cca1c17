// `idemlab publish`: transfer requests as persistent messages on a durable queue (RabbitMQ) or
// stream (NATS JetStream), each confirmed by the broker; a lost confirm makes a second message
// of the same request, which JetStream drops within its duplicate window.
#include <fmt/format.h>

#include <cstdio>

#include "cli/command.h"
#include "cli/errors.h"
#include "core/limits.h"
#include "core/parse.h"
#include "ledger/money.h"
#include "queue/brokers.h"
#include "queue/publisher.h"
#include "term/text.h"

namespace idemlab {

namespace {

struct PublishOptions {
  std::string broker;
  std::string queue;
  PublishSettings settings;
  std::string fault;
  std::string amount = "1.00";
  std::string key;  // business or none; empty: business where the broker dedups
  int64_t duplicate_window_ms = 0;
  int64_t seed = 1;
  bool json = false;
};

// P as a chance (0 to 1), or false.
bool parse_chance(const std::string& text, double* out) {
  try {
    size_t used = 0;
    *out = std::stod(text, &used);
    return used == text.size() && *out >= 0 && *out <= 1;
  } catch (const std::exception&) {
    return false;
  }
}

// confirm-lost:p=P or confirm-lost:nth=N, then [,delay-ms=MS].
void parse_confirm_fault(const std::string& text, PublishSettings* out) {
  const std::string kind = "confirm-lost:";
  std::string rest = text.starts_with(kind) ? text.substr(kind.size()) : "";
  bool good = !rest.empty();
  if (const size_t comma = rest.find(','); good && comma != std::string::npos) {
    const std::string delay = rest.substr(comma + 1);
    int64_t ms = 0;
    good = delay.starts_with("delay-ms=") &&
           parse_whole(delay.substr(9), 0, limits::kMaxDurationMs, &ms);
    out->confirm_lost_delay_ms = static_cast<int>(ms);
    rest.resize(comma);
  }
  int64_t nth = 0;
  if (good && rest.starts_with("p="))
    good = parse_chance(rest.substr(2), &out->confirm_lost_p);
  else if (good && rest.starts_with("nth="))
    good = parse_whole(rest.substr(4), 1, limits::kMaxRequests, &nth);
  else
    good = false;
  out->confirm_lost_nth = nth;
  if (!good)
    throw_if_error(Status::usage(fmt::format(
        "--fault {}: publish takes confirm-lost:p=P (0 to 1) or confirm-lost:nth=N, either "
        "followed by ,delay-ms=MS (how long the producer waits before publishing again)",
        text)));
}

// The dedup id and the window, checked against what the broker can do.
void check_dedup(const PublishOptions& options, const BrokerKind& broker,
                 PublishSettings* settings) {
  if (!broker.dedup_window && options.key == "business")
    throw_if_error(Status::usage(fmt::format(
        "--key business: {} dedups nothing, so no dedup id is sent (NATS JetStream drops a "
        "repeat of one within its window)",
        broker.name)));
  if (!broker.dedup_window && options.duplicate_window_ms > 0)
    throw_if_error(Status::usage(
        fmt::format("--duplicate-window-ms: {} keeps no duplicate window", broker.name)));
  settings->dedup_by_business = broker.dedup_window && options.key != "none";
}

void print_tally(const PublishOptions& options, const PublishTally& tally) {
  const PublishSettings& settings = options.settings;
  if (options.json) {
    print_json({{"queue", options.queue},
                {"requests", tally.requests},
                {"publishes", tally.publishes},
                {"messages", tally.messages},
                {"copies", tally.copies},
                {"duplicates", tally.duplicates},
                {"dedup_id", settings.dedup_by_business ? "business" : "none"}});
    return;
  }
  fmt::print("published {} to {} as {} ({} after lost confirms)\n",
             count_of(tally.requests, "request"), options.queue,
             count_of(tally.messages, "message"), count_of(tally.copies, "copy", "copies"));
  if (settings.dedup_by_business)
    fmt::print("dropped by the stream as duplicates (its publish ack said so): {}\n",
               count_of(tally.duplicates, "publish", "publishes"));
}

ExitCode run_publish(PublishOptions& options) {
  PublishSettings& settings = options.settings;
  settings.seed = static_cast<uint64_t>(options.seed);
  const BrokerKind& broker = *value_or_throw(broker_of(options.broker));
  check_dedup(options, broker, &settings);
  if (!options.fault.empty()) parse_confirm_fault(options.fault, &settings);
  throw_if_error(parse_amount(options.amount, false, &settings.payload.amount_minor));
  std::unique_ptr<PublishedQueue> queue = value_or_throw(
      broker.open_published(options.broker, {options.queue, options.duplicate_window_ms}));
  PublishTally tally;
  const Status published =
      publish_transfers(*queue, settings, &tally, [&](const std::string& line) {
        if (options.json) return;
        fmt::print("{}\n", line);
        std::fflush(stdout);  // each line as it happens, into a pipe or a log too
      });
  throw_if_error(published);
  print_tally(options, tally);
  return ExitCode::kOk;
}

}  // namespace

void register_publish(CLI::App& app, CommandResult& result) {
  auto options = std::make_shared<PublishOptions>();
  CLI::App* command = app.add_subcommand(
      "publish", "transfer requests as messages on a RabbitMQ queue or a JetStream stream");
  command->add_option("--broker", options->broker, broker_url_help())
      ->required()
      ->envname("IDEMLAB_BROKER");
  command
      ->add_option("--queue", options->queue,
                   "a durable queue, or on JetStream a stream and its subject (made if absent)")
      ->required();
  command->add_option("--requests", options->settings.requests, "how many requests")
      ->required()
      ->check(whole_number(1, limits::kMaxRequests));
  command->add_option("--prefix", options->settings.prefix,
                      "request N's biz_seq is PREFIX-N (default req)");
  command
      ->add_option("--key", options->key,
                   "business: the request's business key as JetStream's Nats-Msg-Id, so that "
                   "the stream drops a repeat within its window (the default on JetStream); "
                   "none: no dedup id (RabbitMQ's only way)")
      ->check(CLI::IsMember({"business", "none"}));
  command
      ->add_option("--duplicate-window-ms", options->duplicate_window_ms,
                   "JetStream: the window of a stream publish makes (default: the server's, "
                   "two minutes); a stream that exists keeps its own")
      ->check(whole_number(1, limits::kMaxDurationMs));
  add_source_option(command, &options->settings.payload.source);
  command->add_option("--from", options->settings.payload.from, "payer (default alice)");
  command->add_option("--to", options->settings.payload.to, "payee (default bob)");
  command->add_option("--amount", options->amount, "each request's amount (default 1.00)");
  command->add_option("--fault", options->fault,
                      "confirm-lost:p=P or confirm-lost:nth=N[,delay-ms=MS]: the producer drops "
                      "the broker's confirm and publishes the request again (after MS), as a "
                      "new message");
  command->add_option("--seed", options->seed, "seed of the fault's draws (default 1)")
      ->check(whole_number(0, limits::kMaxSeed));
  add_json_flag(command, &options->json);
  command->callback([options, &result] {
    if (options->settings.payload.from.empty()) options->settings.payload.from = "alice";
    if (options->settings.payload.to.empty()) options->settings.payload.to = "bob";
    result.exit_code = run_publish(*options);
  });
}

}  // namespace idemlab
