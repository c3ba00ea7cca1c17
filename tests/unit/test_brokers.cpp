// Tests for queue/brokers: the URL's scheme chooses the broker, and says what it can do.
#include <doctest/doctest.h>

#include "queue/brokers.h"

namespace idemlab {

TEST_CASE("the URL's scheme chooses the broker, and what it can do") {
  Result<const BrokerKind*> rabbit = broker_of("amqp://guest:guest@127.0.0.1:5672/");
  REQUIRE(rabbit.is_ok());
  CHECK((*rabbit)->name == "RabbitMQ");
  CHECK((!(*rabbit)->dedup_window && !(*rabbit)->double_ack && (*rabbit)->redelivers_on_close));
  Result<const BrokerKind*> nats = broker_of("nats://127.0.0.1:4222");
  REQUIRE(nats.is_ok());
  CHECK((*nats)->name == "NATS JetStream");
  CHECK(((*nats)->dedup_window && (*nats)->double_ack && !(*nats)->redelivers_on_close));
  // The TLS schemes reach the broker's own client, which refuses them in its words.
  CHECK(*broker_of("amqps://h:1/") == *rabbit);
  CHECK(*broker_of("tls://h:1") == *nats);
}

TEST_CASE("a URL of no broker is one usage error, without its password") {
  Result<const BrokerKind*> kafka = broker_of("kafka://user:secret@h:1");
  REQUIRE(!kafka.is_ok());
  CHECK(kafka.status().code() == StatusCode::kUsage);
  CHECK(kafka.status().message().find("'kafka://'") != std::string::npos);
  CHECK(kafka.status().message().find("secret") == std::string::npos);
  CHECK(broker_of("localhost:5672").status().message().find("no scheme") != std::string::npos);
}

}  // namespace idemlab
