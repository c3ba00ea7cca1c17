// Resolving libnats.so.3.4's functions into LibNats.
#include "queue/nats/libnats.h"

#include "core/client_library.h"

namespace idemlab {

namespace {

bool resolve_all(const ClientLibrary& library, LibNats* out) {
  return resolve(library, "natsOptions_Create", &out->options_create) &&
         resolve(library, "natsOptions_Destroy", &out->options_destroy) &&
         resolve(library, "natsOptions_SetURL", &out->options_set_url) &&
         resolve(library, "natsOptions_SetTimeout", &out->options_set_timeout) &&
         resolve(library, "natsOptions_SetMaxReconnect", &out->options_set_max_reconnect) &&
         resolve(library, "natsOptions_SetReconnectWait", &out->options_set_reconnect_wait) &&
         resolve(library, "natsConnection_Connect", &out->connect) &&
         resolve(library, "natsConnection_Destroy", &out->connection_destroy) &&
         resolve(library, "natsConnection_JetStream", &out->jetstream) &&
         resolve(library, "jsCtx_Destroy", &out->jetstream_destroy) &&
         resolve(library, "jsOptions_Init", &out->js_options_init) &&
         resolve(library, "jsStreamConfig_Init", &out->stream_config_init) &&
         resolve(library, "js_AddStream", &out->add_stream) &&
         resolve(library, "js_GetStreamInfo", &out->get_stream_info) &&
         resolve(library, "jsStreamInfo_Destroy", &out->stream_info_destroy) &&
         resolve(library, "jsPubOptions_Init", &out->pub_options_init) &&
         resolve(library, "js_PublishMsg", &out->publish_msg) &&
         resolve(library, "jsPubAck_Destroy", &out->pub_ack_destroy) &&
         resolve(library, "natsMsg_Create", &out->msg_create) &&
         resolve(library, "natsMsg_Destroy", &out->msg_destroy) &&
         resolve(library, "natsMsgHeader_Set", &out->header_set) &&
         resolve(library, "natsMsgHeader_Get", &out->header_get) &&
         resolve(library, "natsMsg_GetData", &out->msg_data) &&
         resolve(library, "natsMsg_GetDataLength", &out->msg_data_length) &&
         resolve(library, "natsMsg_GetMetaData", &out->msg_metadata) &&
         resolve(library, "jsMsgMetaData_Destroy", &out->metadata_destroy) &&
         resolve(library, "js_GetConsumerInfo", &out->get_consumer_info) &&
         resolve(library, "jsConsumerInfo_Destroy", &out->consumer_info_destroy) &&
         resolve(library, "jsSubOptions_Init", &out->sub_options_init) &&
         resolve(library, "js_PullSubscribe", &out->pull_subscribe) &&
         resolve(library, "natsSubscription_Fetch", &out->fetch) &&
         resolve(library, "natsMsgList_Destroy", &out->msg_list_destroy) &&
         resolve(library, "natsSubscription_Destroy", &out->subscription_destroy) &&
         resolve(library, "natsMsg_Ack", &out->ack) &&
         resolve(library, "natsMsg_AckSync", &out->ack_sync) &&
         resolve(library, "natsMsg_Nak", &out->nak) &&
         resolve(library, "natsStatus_GetText", &out->status_text) &&
         resolve(library, "nats_GetLastError", &out->last_error);
}

}  // namespace

Status load_libnats(const LibNats** out) {
  return load_client("libnats.so.3.4", "libnats3.4", resolve_all, out);
}

}  // namespace idemlab
