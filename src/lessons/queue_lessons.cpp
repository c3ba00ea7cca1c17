// The lessons on a real queue (idemlab lesson N --broker URL): an offset is not a business key
// (001), and the queue redelivers (003). Each publishes to a queue of its own on the broker and
// consumes it for real; the balances and the audit come from the ledger.
#include "lessons/steps.h"

namespace idemlab {

namespace {

constexpr std::string_view kPublish = "publish --broker $BROKER --queue $QUEUE --requests 4";
constexpr std::string_view kConsume =
    "consume --broker $BROKER --queue $QUEUE --db l.db --strategy dedup-table --until-idle 500";

std::string with(std::string_view command, std::string_view extra) {
  return std::string(command) + " " + std::string(extra);
}

}  // namespace

Lesson offset_is_not_a_key() {
  return {0,
          "offset-is-not-a-key",
          "An offset is not a business key",
          "001 (MQ: Topic + Offset as the dedup token)",
          "A producer whose confirm is lost publishes the request again: a second message, "
          "with its own message id (its own offset), of the same request. A consumer that "
          "dedups by the message lets it through.",
          {step("", "init --db l.db"),
           step("Four requests; the broker's confirm of the second is lost, so it is published "
                "twice.",
                with(kPublish, "--prefix a --fault confirm-lost:nth=2")),
           step("Keyed by the broker's message id: req a-2 arrives as two messages, and pays "
                "twice.",
                with(kConsume, "--key message-id")),
           step("", "accounts --db l.db"),
           step("The same with the business key (source and biz_seq, the default): the copy is a "
                "repeat.",
                with(kPublish, "--prefix b --fault confirm-lost:nth=2")),
           step("", kConsume),
           step("alice paid 5.00 for the first four requests, 4.00 for the next four.",
                "accounts --db l.db")},
          "dedup by what identifies the request (who sent it, and its id), never by what "
          "identifies the message that carried it."};
}

Lesson queue_redelivers() {
  return {
      0,
      "queue-redelivers",
      "The queue redelivers",
      "003 §1-2 (a consumer dies before its ack)",
      "A consumer commits its work, then dies before its ack reaches the broker. The broker "
      "delivers the message again, marked redelivered, and the consumer must answer it as a "
      "repeat.",
      {step("", "init --db l.db"), step("", with(kPublish, "--prefix c")),
       step("This consumer is killed (SIGKILL) right after its second commit, before the ack.",
            with(kConsume, "--fault crash:after=commit,nth=2"), 137),
       step("The next consumer gets that message again: redelivered, and replayed.", kConsume),
       step("Acking on receipt instead (001's autocommit): the consumer dies mid-work, and the "
            "message is gone.",
            with(kPublish, "--prefix d")),
       step("", with(kConsume, "--ack on-receipt --fault crash:after=debit,nth=2"), 137),
       step("", with(kConsume, "--ack on-receipt")),
       step("Requests c: each moved once. Requests d: d-2 never moved, and nobody will retry it.",
            "history --db l.db")},
      "ack after the commit and make the work idempotent: then a redelivery is harmless, and "
      "nothing is lost."};
}

}  // namespace idemlab
