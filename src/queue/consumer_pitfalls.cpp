// The pitfalls of a queue consumer: the two the references name (001 §MQ), and trusting a
// broker that dedups (JetStream) in place of a guard.
#include "queue/consumer_pitfalls.h"

#include <array>

namespace idemlab {

namespace {

constexpr std::array kConsumerPitfalls{
    ConsumerPitfall{
        "ack-on-receipt", "--ack on-receipt", "001 (MQ: the consumer's autocommit of its offset)",
        "the message is acked before the work: a consumer that dies mid-work has already told "
        "the broker it is done, so the message is gone, nobody retries it, and the money never "
        "moves",
        "lesson queue-redelivers --broker URL", "acked_never_applied"},
    ConsumerPitfall{
        "message-key", "--key message-id", "001 (MQ: Topic + Offset as the dedup token)",
        "the guard is keyed by the broker's message id, which names the message, not the "
        "request: a producer that publishes again after a lost confirm sends a second message "
        "of the same request, and it moves the money again",
        "lesson offset-is-not-a-key --broker URL", "applied_once_per_message"},
    ConsumerPitfall{
        "broker-window", "--strategy naive on a JetStream stream",
        "001 and 003 §1-2 (MQ duplicates), with JetStream's message ids",
        "the broker's duplicate window is trusted as the guard: it drops a producer's retry "
        "that comes within the window, but a retry after it is a new message, and a "
        "redelivery (a consumer that died after its commit, whatever its ack mode) is no "
        "publish at all: both move the money again",
        "lesson the-broker-dedups-for-a-window --nats URL", "applied_more_than_once"},
};

}  // namespace

std::span<const ConsumerPitfall> consumer_pitfalls() {
  return kConsumerPitfalls;
}

}  // namespace idemlab
