// The table of brokers.
#include "queue/brokers.h"

#include <fmt/format.h>

#include <array>

#include "queue/amqp/rabbit_publisher.h"
#include "queue/amqp/rabbit_queue.h"
#include "queue/nats/jetstream_publisher.h"
#include "queue/nats/jetstream_queue.h"

namespace idemlab {

namespace {

Result<std::unique_ptr<ConsumedQueue>> open_rabbit_consumed(const std::string& url,
                                                            const ConsumedQueueOptions& options) {
  ASSIGN_OR_RETURN(std::unique_ptr<RabbitQueue> queue,
                   RabbitQueue::open(url, options.queue, options.prefetch));
  return std::unique_ptr<ConsumedQueue>(std::move(queue));
}

Result<std::unique_ptr<PublishedQueue>> open_rabbit_published(
    const std::string& url, const PublishedQueueOptions& options) {
  ASSIGN_OR_RETURN(std::unique_ptr<RabbitPublisher> queue,
                   RabbitPublisher::open(url, options.queue));
  return std::unique_ptr<PublishedQueue>(std::move(queue));
}

Result<std::unique_ptr<ConsumedQueue>> open_jetstream_consumed(
    const std::string& url, const ConsumedQueueOptions& options) {
  ASSIGN_OR_RETURN(std::unique_ptr<JetStreamQueue> queue, JetStreamQueue::open(url, options));
  return std::unique_ptr<ConsumedQueue>(std::move(queue));
}

Result<std::unique_ptr<PublishedQueue>> open_jetstream_published(
    const std::string& url, const PublishedQueueOptions& options) {
  ASSIGN_OR_RETURN(std::unique_ptr<JetStreamPublisher> queue,
                   JetStreamPublisher::open(url, options));
  return std::unique_ptr<PublishedQueue>(std::move(queue));
}

constexpr std::array kBrokers{
    BrokerKind{"amqp", "amqps", "RabbitMQ", false, false, true, open_rabbit_consumed,
               open_rabbit_published},
    BrokerKind{"nats", "tls", "NATS JetStream", true, true, false, open_jetstream_consumed,
               open_jetstream_published},
};

}  // namespace

Result<const BrokerKind*> broker_of(const std::string& url) {
  const size_t colon = url.find("://");
  const std::string scheme = colon == std::string::npos ? "" : url.substr(0, colon);
  for (const BrokerKind& kind : kBrokers)
    if (kind.scheme == scheme || kind.tls_scheme == scheme) return &kind;
  return Status::usage(fmt::format("--broker: {} is not a broker's scheme (the URL is {})",
                                   scheme.empty() ? "no scheme" : "'" + scheme + "://'",
                                   broker_url_help()));
}

std::string broker_url_help() {
  return "amqp://USER:PASSWORD@HOST:PORT/ (RabbitMQ) or nats://HOST:PORT (NATS JetStream)";
}

}  // namespace idemlab
