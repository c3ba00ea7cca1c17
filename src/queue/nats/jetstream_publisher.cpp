// Opening a JetStream stream for the producer.
#include "queue/nats/jetstream_publisher.h"

namespace idemlab {

Result<std::unique_ptr<JetStreamPublisher>> JetStreamPublisher::open(
    const std::string& url, const PublishedQueueOptions& options) {
  ASSIGN_OR_RETURN(std::unique_ptr<JetStream> stream, JetStream::connect(url));
  RETURN_IF_ERROR(stream->make_stream(options.queue, options.duplicate_window_ms));
  return std::make_unique<JetStreamPublisher>(std::move(stream), options.queue);
}

}  // namespace idemlab
