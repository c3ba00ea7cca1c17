// The NATS C client's functions idemlab calls, resolved from libnats.so.3.4 the first time a
// JetStream broker is used (it links OpenSSL and protobuf-c: loaded at start-up it would cost
// every process, as the database clients would; see core/client_library.h).
#pragma once

#include <nats/nats.h>

#include "core/status.h"

namespace idemlab {

struct LibNats {
  decltype(&natsOptions_Create) options_create;
  decltype(&natsOptions_Destroy) options_destroy;
  decltype(&natsOptions_SetURL) options_set_url;
  decltype(&natsOptions_SetTimeout) options_set_timeout;
  decltype(&natsOptions_SetMaxReconnect) options_set_max_reconnect;
  decltype(&natsOptions_SetReconnectWait) options_set_reconnect_wait;
  decltype(&natsConnection_Connect) connect;
  decltype(&natsConnection_Destroy) connection_destroy;
  decltype(&natsConnection_JetStream) jetstream;
  decltype(&jsCtx_Destroy) jetstream_destroy;
  decltype(&jsOptions_Init) js_options_init;
  decltype(&jsStreamConfig_Init) stream_config_init;
  decltype(&js_AddStream) add_stream;
  decltype(&js_GetStreamInfo) get_stream_info;
  decltype(&jsStreamInfo_Destroy) stream_info_destroy;
  decltype(&jsPubOptions_Init) pub_options_init;
  decltype(&js_PublishMsg) publish_msg;
  decltype(&jsPubAck_Destroy) pub_ack_destroy;
  decltype(&natsMsg_Create) msg_create;
  decltype(&natsMsg_Destroy) msg_destroy;
  decltype(&natsMsgHeader_Set) header_set;
  decltype(&natsMsgHeader_Get) header_get;
  decltype(&natsMsg_GetData) msg_data;
  decltype(&natsMsg_GetDataLength) msg_data_length;
  decltype(&natsMsg_GetMetaData) msg_metadata;
  decltype(&jsMsgMetaData_Destroy) metadata_destroy;
  decltype(&js_GetConsumerInfo) get_consumer_info;
  decltype(&jsConsumerInfo_Destroy) consumer_info_destroy;
  decltype(&jsSubOptions_Init) sub_options_init;
  decltype(&js_PullSubscribe) pull_subscribe;
  decltype(&natsSubscription_Fetch) fetch;
  decltype(&natsMsgList_Destroy) msg_list_destroy;
  decltype(&natsSubscription_Destroy) subscription_destroy;
  decltype(&natsMsg_Ack) ack;
  decltype(&natsMsg_AckSync) ack_sync;
  decltype(&natsMsg_Nak) nak;
  decltype(&natsStatus_GetText) status_text;
  decltype(&nats_GetLastError) last_error;
};

// The table, loaded once per process.
Status load_libnats(const LibNats** out);

}  // namespace idemlab
