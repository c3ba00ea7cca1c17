/* scripts/bench-consume's yardstick on NATS JetStream: the server's own rate on one connection,
 * one message at a time: publish to a file-backed work-queue stream and wait for its ack, fetch
 * it through a durable pull consumer, ack it; N times, as consume and publish do.
 * usage: nats_loop URL STREAM N    prints: messages per second */
#include <nats/nats.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  if (argc != 4) return 2;
  natsConnection *nc = NULL;
  jsCtx *js = NULL;
  if (natsConnection_ConnectTo(&nc, argv[1]) != NATS_OK) return 1;
  if (natsConnection_JetStream(&js, nc, NULL) != NATS_OK) return 1;
  jsStreamConfig config;
  jsStreamConfig_Init(&config);
  const char *subjects[] = {argv[2]};
  config.Name = argv[2];
  config.Subjects = subjects;
  config.SubjectsLen = 1;
  config.Storage = js_FileStorage;
  config.Retention = js_WorkQueuePolicy;
  if (js_AddStream(NULL, js, &config, NULL, NULL) != NATS_OK) return 1;
  jsSubOptions options;
  jsSubOptions_Init(&options);
  options.Config.AckPolicy = js_AckExplicit;
  natsSubscription *sub = NULL;
  if (js_PullSubscribe(&sub, js, argv[2], "loop", NULL, &options, NULL) != NATS_OK) return 1;
  const char body[] = "{\"source\":\"mq\",\"biz_seq\":\"x\",\"from\":\"alice\",\"to\":\"bob\",\"amount\":\"0.01\"}";
  const int n = atoi(argv[3]);
  const double started = now();
  for (int i = 0; i < n; ++i) {
    jsPubAck *ack = NULL;
    if (js_Publish(&ack, js, argv[2], body, (int)sizeof body - 1, NULL, NULL) != NATS_OK) return 1;
    jsPubAck_Destroy(ack);
    natsMsgList list = {0};
    if (natsSubscription_Fetch(&list, sub, 1, 5000, NULL) != NATS_OK || list.Count != 1) return 1;
    natsMsg_Ack(list.Msgs[0], NULL);
    natsMsgList_Destroy(&list);
  }
  printf("%.0f\n", n / (now() - started));
  natsSubscription_Destroy(sub);
  jsCtx_Destroy(js);
  natsConnection_Destroy(nc);
  return 0;
}
