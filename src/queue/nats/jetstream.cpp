// JetStream over nats.c: connecting, the stream, publishing with acks.
#include "queue/nats/jetstream.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "core/interrupt.h"
#include "core/limits.h"

namespace idemlab {

namespace {

constexpr int64_t kNanosPerMs = 1'000'000;
constexpr int kConnectTimeoutMs = 2000;
constexpr int kReconnectWaitMs = 100;

// A stream's name is the queue's, and names its subjects: letters, digits, _ and -.
Status check_queue_name(const std::string& queue) {
  const bool plain = !queue.empty() && std::all_of(queue.begin(), queue.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
  if (plain) return Status::ok();
  return Status::usage(fmt::format(
      "--queue {}: a JetStream queue is a stream and its subject, named with letters, digits, "
      "_ and - only",
      queue));
}

// The URL without its user and password, for messages.
std::string location_of(const std::string& url) {
  const size_t at = url.rfind('@');
  return at == std::string::npos ? url : "nats://" + url.substr(at + 1);
}

}  // namespace

Result<std::unique_ptr<JetStream>> JetStream::connect(const std::string& url) {
  if (!url.starts_with("nats://"))
    return Status::usage(
        fmt::format("--broker {}: JetStream is reached at nats://HOST:PORT "
                    "(this client speaks no TLS)",
                    location_of(url)));
  const LibNats* lib = nullptr;
  RETURN_IF_ERROR(load_libnats(&lib));
  std::unique_ptr<JetStream> stream(new JetStream(lib, location_of(url)));
  natsOptions* options = nullptr;
  natsStatus status = lib->options_create(&options);
  if (status == NATS_OK) status = lib->options_set_url(options, url.c_str());
  if (status == NATS_OK) status = lib->options_set_timeout(options, kConnectTimeoutMs);
  // A server restarted under a run is reconnected to for as long as it takes; what was cut
  // short meanwhile (a publish, an ack) answers as unknown.
  if (status == NATS_OK) status = lib->options_set_max_reconnect(options, -1);
  if (status == NATS_OK) status = lib->options_set_reconnect_wait(options, kReconnectWaitMs);
  if (status == NATS_OK) status = lib->connect(&stream->connection_, options);
  if (options != nullptr) lib->options_destroy(options);
  if (status != NATS_OK)
    return Status::ledger(
        fmt::format("cannot reach {}: {}", stream->location_, lib->status_text(status)));
  jsOptions js;
  lib->js_options_init(&js);
  js.Wait = int64_t{defaults::kServerWaitS} * 1000;
  status = lib->jetstream(&stream->context_, stream->connection_, &js);
  if (status != NATS_OK) return stream->failure(status, jsErrCode(0), "opening JetStream");
  return stream;
}

JetStream::~JetStream() {
  if (context_ != nullptr) lib_->jetstream_destroy(context_);
  if (connection_ != nullptr) lib_->connection_destroy(connection_);
}

Status JetStream::failure(natsStatus status, jsErrCode code, const std::string& doing) const {
  const char* last = lib_->last_error(nullptr);
  const std::string why = last != nullptr && *last != '\0' ? last : lib_->status_text(status);
  const std::string coded = code != 0 ? fmt::format(" (JetStream error {})", int{code}) : "";
  if (status == NATS_CONNECTION_CLOSED || status == NATS_CONNECTION_DISCONNECTED ||
      status == NATS_NO_SERVER)
    return Status::unavailable(
        "connection_lost",
        fmt::format("lost the connection to {} while {}: {}", location_, doing, why));
  return Status::unavailable("broker_error",
                             fmt::format("{} while {}: {}{}", location_, doing, why, coded));
}

Status JetStream::make_stream(const std::string& queue, int64_t duplicate_window_ms) {
  RETURN_IF_ERROR(check_queue_name(queue));
  const std::string dead = queue + ".dead";
  std::array<const char*, 2> subjects{queue.c_str(), dead.c_str()};
  jsStreamConfig config;
  lib_->stream_config_init(&config);
  config.Name = queue.c_str();
  config.Subjects = subjects.data();
  config.SubjectsLen = static_cast<int>(subjects.size());
  config.Storage = js_FileStorage;
  config.Retention = js_WorkQueuePolicy;  // a message stays until a consumer acks it
  config.Duplicates = duplicate_window_ms * kNanosPerMs;
  jsStreamInfo* info = nullptr;
  jsErrCode code = jsErrCode(0);
  const natsStatus status = lib_->add_stream(&info, context_, &config, nullptr, &code);
  if (info != nullptr) lib_->stream_info_destroy(info);
  if (status == NATS_OK || code == JSStreamNameExistErr) return Status::ok();
  return failure(status, code, "making the stream " + queue);
}

Status JetStream::expect_stream(const std::string& queue) {
  RETURN_IF_ERROR(check_queue_name(queue));
  jsStreamInfo* info = nullptr;
  jsErrCode code = jsErrCode(0);
  const natsStatus status = lib_->get_stream_info(&info, context_, queue.c_str(), nullptr, &code);
  if (info != nullptr) lib_->stream_info_destroy(info);
  if (status == NATS_OK) return Status::ok();
  if (code == JSStreamNotFoundErr)
    return Status::usage(
        fmt::format("{} has no stream {}: idemlab publish makes it", location_, queue));
  return failure(status, code, "looking up the stream " + queue);
}

Result<Confirm> JetStream::publish(const std::string& subject, const OutgoingMessage& message,
                                   int wait_ms, const std::string& reason) {
  natsMsg* msg = nullptr;
  natsStatus status = lib_->msg_create(&msg, subject.c_str(), nullptr, message.body.data(),
                                       static_cast<int>(message.body.size()));
  if (status == NATS_OK && !message.message_id.empty())
    status = lib_->header_set(msg, kMessageIdHeader, message.message_id.c_str());
  if (status == NATS_OK && !reason.empty())
    status = lib_->header_set(msg, kReasonHeader, reason.c_str());
  jsPubOptions options;
  lib_->pub_options_init(&options);
  options.MaxWait = wait_ms;
  if (!message.dedup_id.empty()) options.MsgId = message.dedup_id.c_str();
  jsPubAck* ack = nullptr;
  jsErrCode code = jsErrCode(0);
  if (status == NATS_OK) status = lib_->publish_msg(&ack, context_, msg, &options, &code);
  if (msg != nullptr) lib_->msg_destroy(msg);
  if (status == NATS_OK) {
    const bool duplicate = ack->Duplicate;
    lib_->pub_ack_destroy(ack);
    return duplicate ? Confirm::kDuplicate : Confirm::kStored;
  }
  // Cut short (the server restarting, its JetStream not yet back): stored or not, unknown. A
  // pause, so that the producer's next copy does not find the same gap at once.
  if (status == NATS_TIMEOUT || status == NATS_NO_RESPONDERS ||
      status == NATS_CONNECTION_DISCONNECTED) {
    if (status != NATS_TIMEOUT) (void)sleep_unless_interrupted(std::min(wait_ms, 500));
    return Confirm::kNoConfirm;
  }
  return failure(status, code, "publishing on " + subject);
}

}  // namespace idemlab
