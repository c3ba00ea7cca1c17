// `idemlab publish`: transfer requests as persistent messages on a durable RabbitMQ queue, each
// confirmed by the broker; a lost confirm makes a second message of the same request.
#include <fmt/format.h>

#include "amqp/publisher.h"
#include "cli/command.h"
#include "cli/errors.h"
#include "core/limits.h"
#include "core/parse.h"
#include "ledger/money.h"
#include "term/text.h"

namespace idemlab {

namespace {

struct PublishOptions {
  std::string broker;
  PublishSettings settings;
  std::string fault;
  std::string amount = "1.00";
  int64_t seed = 1;
  bool json = false;
};

// confirm-lost:p=X or confirm-lost:nth=N.
void parse_confirm_fault(const std::string& text, PublishSettings* out) {
  const std::string kind = "confirm-lost:";
  int64_t nth = 0;
  if (text.starts_with(kind + "p=")) {
    try {
      size_t used = 0;
      out->confirm_lost_p = std::stod(text.substr(kind.size() + 2), &used);
      if (used == text.size() - kind.size() - 2 && out->confirm_lost_p >= 0 &&
          out->confirm_lost_p <= 1)
        return;
    } catch (const std::exception&) {
    }
  } else if (text.starts_with(kind + "nth=") &&
             parse_whole(text.substr(kind.size() + 4), 1, limits::kMaxRequests, &nth)) {
    out->confirm_lost_nth = nth;
    return;
  }
  throw_if_error(Status::usage(fmt::format(
      "--fault {}: publish takes confirm-lost:p=P (0 to 1) or confirm-lost:nth=N", text)));
}

ExitCode run_publish(PublishOptions& options) {
  PublishSettings& settings = options.settings;
  settings.seed = static_cast<uint64_t>(options.seed);
  if (!options.fault.empty()) parse_confirm_fault(options.fault, &settings);
  throw_if_error(parse_amount(options.amount, false, &settings.payload.amount_minor));
  Broker broker = value_or_throw(Broker::connect(options.broker));
  PublishTally tally;
  const Status published =
      publish_transfers(broker, settings, &tally, [&](const std::string& line) {
        if (!options.json) fmt::print("{}\n", line);
      });
  throw_if_error(published);
  if (options.json) {
    print_json({{"queue", settings.queue},
                {"requests", tally.requests},
                {"messages", tally.messages},
                {"copies", tally.copies}});
  } else {
    fmt::print("published {} to {} as {} ({} after lost confirms)\n",
               count_of(tally.requests, "request"), settings.queue,
               count_of(tally.messages, "message"), count_of(tally.copies, "copy", "copies"));
  }
  return ExitCode::kOk;
}

}  // namespace

void register_publish(CLI::App& app, CommandResult& result) {
  auto options = std::make_shared<PublishOptions>();
  CLI::App* command = app.add_subcommand(
      "publish", "transfer requests as messages on a RabbitMQ queue, each confirmed");
  command->add_option("--broker", options->broker, "amqp://USER:PASSWORD@HOST:PORT/")
      ->required()
      ->envname("IDEMLAB_BROKER");
  command->add_option("--queue", options->settings.queue, "a durable queue (declared if absent)")
      ->required();
  command->add_option("--requests", options->settings.requests, "how many requests")
      ->required()
      ->check(whole_number(1, limits::kMaxRequests));
  command->add_option("--prefix", options->settings.prefix,
                      "request N's biz_seq is PREFIX-N (default req)");
  add_source_option(command, &options->settings.payload.source);
  command->add_option("--from", options->settings.payload.from, "payer (default alice)");
  command->add_option("--to", options->settings.payload.to, "payee (default bob)");
  command->add_option("--amount", options->amount, "each request's amount (default 1.00)");
  command->add_option("--fault", options->fault,
                      "confirm-lost:p=P or confirm-lost:nth=N: the producer drops the broker's "
                      "confirm and publishes the request again, as a new message");
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
