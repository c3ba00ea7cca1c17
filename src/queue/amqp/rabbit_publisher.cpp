// Opening a RabbitMQ queue for the producer.
#include "queue/amqp/rabbit_publisher.h"

namespace idemlab {

Result<std::unique_ptr<RabbitPublisher>> RabbitPublisher::open(const std::string& url,
                                                               const std::string& queue) {
  ASSIGN_OR_RETURN(Broker broker, Broker::connect(url));
  RETURN_IF_ERROR(broker.declare_queue(queue));
  RETURN_IF_ERROR(broker.enable_confirms());
  return std::make_unique<RabbitPublisher>(std::move(broker), queue);
}

}  // namespace idemlab
