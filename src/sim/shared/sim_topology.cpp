// Parsing a simulated run's topology, and completing it from the run's faults.
#include "sim/shared/sim_topology.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "core/limits.h"
#include "core/parse.h"

namespace idemlab {

namespace {

using Pairs = std::vector<std::pair<std::string_view, std::string_view>>;

Status bad(std::string_view text, std::string_view why) {
  return Status::usage(fmt::format("--topology {}: {}", text, why));
}

Status whole(std::string_view text, std::string_view key, std::string_view value, int64_t low,
             int64_t high, int64_t* out) {
  if (parse_whole(value, low, high, out)) return Status::ok();
  return bad(text, fmt::format("{}={} is not a whole number from {} to {}", key, value, low, high));
}

Status parse_sync(std::string_view text, std::string_view value, StandbySync* out) {
  static constexpr std::pair<std::string_view, StandbySync> kNames[] = {
      {"off", StandbySync::kOff}, {"on", StandbySync::kOn}, {"strict", StandbySync::kStrict}};
  for (const auto& [name, sync] : kNames)
    if (value == name) {
      *out = sync;
      return Status::ok();
    }
  return bad(text, fmt::format("sync={} is not off, on or strict", value));
}

Status parse_standby(std::string_view text, const Pairs& pairs, SimTopology* out) {
  out->ledger = LedgerShape::kStandby;
  for (const auto& [key, value] : pairs) {
    if (key == "lag-ms") {
      RETURN_IF_ERROR(whole(text, key, value, 0, limits::kMaxDurationMs, &out->ledger_lag_ms));
      out->ledger_lag_given = true;
    } else if (key == "reads" && (value == "standby" || value == "primary")) {
      out->reads_on_standby = value == "standby";
    } else if (key == "reads") {
      return bad(text, fmt::format("reads={} is not primary or standby", value));
    } else if (key == "sync") {
      RETURN_IF_ERROR(parse_sync(text, value, &out->ledger_sync));
    } else if (key == "max-lag-ms") {
      RETURN_IF_ERROR(whole(text, key, value, 0, limits::kMaxDurationMs, &out->max_lag_ms));
    } else {
      return bad(text,
                 fmt::format("a standby takes lag-ms, reads, sync and max-lag-ms; not '{}'", key));
    }
  }
  return Status::ok();
}

Status parse_galera(std::string_view text, const Pairs& pairs, SimTopology* out) {
  out->ledger = LedgerShape::kGalera;
  for (const auto& [key, value] : pairs) {
    int64_t number = 0;
    if (key == "nodes") {
      RETURN_IF_ERROR(whole(text, key, value, 2, 9, &number));
      out->nodes = static_cast<int>(number);
    } else if (key == "apply-ms") {
      RETURN_IF_ERROR(whole(text, key, value, 0, limits::kMaxDurationMs, &out->apply_ms));
      out->apply_ms_given = true;
    } else if (key == "sync-wait") {
      RETURN_IF_ERROR(whole(text, key, value, 0, 1, &number));
      out->causal_reads = number == 1;
    } else if (key == "retry-autocommit") {
      RETURN_IF_ERROR(whole(text, key, value, 0, 1, &number));
      out->retry_autocommit = number == 1;
    } else {
      return bad(text, fmt::format("a Galera cluster takes nodes, apply-ms, sync-wait and "
                                   "retry-autocommit; not '{}'",
                                   key));
    }
  }
  return Status::ok();
}

Status parse_guards(std::string_view text, const Pairs& pairs, SimTopology* out) {
  out->guards_replica = true;
  for (const auto& [key, value] : pairs) {
    if (key == "sync" && (value == "on" || value == "off")) {
      out->guards_sync = value == "on";
      continue;
    }
    if (key == "sync") return bad(text, fmt::format("sync={} is not on or off", value));
    if (key != "lag-ms")
      return bad(text,
                 fmt::format("the guard store's replica takes lag-ms and sync; not '{}'", key));
    RETURN_IF_ERROR(whole(text, key, value, 0, limits::kMaxDurationMs, &out->guards_lag_ms));
    out->guards_lag_given = true;
  }
  return Status::ok();
}

Status parse_queue(std::string_view text, std::string_view shape, const Pairs& pairs,
                   SimTopology* out) {
  if (shape == "plain" && pairs.empty()) return Status::ok();
  if (shape != "jetstream")
    return bad(text, "the queue is plain (it dedups nothing) or jetstream[:window-ms=MS]");
  out->queue_dedups = true;
  for (const auto& [key, value] : pairs) {
    if (key != "window-ms")
      return bad(text, fmt::format("a JetStream queue takes window-ms; not '{}'", key));
    RETURN_IF_ERROR(whole(text, key, value, 1, limits::kMaxDurationMs, &out->queue_window_ms));
  }
  return Status::ok();
}

// The shape's key=value pairs, each key once.
Status split_shape(std::string_view text, std::string_view rest, Pairs* pairs) {
  std::string_view piece;
  if (!split_pairs(rest, pairs, &piece))
    return bad(text, fmt::format("expected key=value, got '{}'", piece));
  std::set<std::string_view> seen;
  for (const auto& pair : *pairs)
    if (!seen.insert(pair.first).second)
      return bad(text, fmt::format("{}= is given twice", pair.first));
  return Status::ok();
}

}  // namespace

Status parse_topology(std::string_view text, SimTopology* out) {
  const size_t equals = text.find('=');
  const std::string_view part = text.substr(0, equals);
  if (equals == std::string_view::npos || (part != "ledger" && part != "guards" && part != "queue"))
    return bad(text, "expected ledger=SHAPE, guards=SHAPE or queue=SHAPE");
  const std::string_view value = text.substr(equals + 1);
  const size_t colon = value.find(':');
  const std::string_view shape = value.substr(0, colon);
  Pairs pairs;
  RETURN_IF_ERROR(
      split_shape(text, colon == std::string_view::npos ? "" : value.substr(colon + 1), &pairs));
  const bool has_pairs = !pairs.empty();
  if (part == "queue") return parse_queue(text, shape, pairs, out);
  if (part == "ledger") {
    if (shape == "standby") return parse_standby(text, pairs, out);
    if (shape == "galera") return parse_galera(text, pairs, out);
    if (shape == "server" && !has_pairs) return Status::ok();
    return bad(text,
               "the ledger is server, standby[:lag-ms=MS,reads=primary|standby,"
               "sync=off|on|strict,max-lag-ms=MS] or "
               "galera[:nodes=N,apply-ms=MS,sync-wait=0|1,retry-autocommit=0|1]");
  }
  if (shape == "replica") return parse_guards(text, pairs, out);
  if (shape == "server" && !has_pairs) return Status::ok();
  if (shape == "lease" && !has_pairs) {  // a replica that loses nothing acknowledged
    out->guards_replica = out->guards_sync = out->guards_lease = true;
    return Status::ok();
  }
  return bad(text,
             "the guards are server (in the ledger), replica[:lag-ms=MS,sync=off|on] or lease");
}

Status parse_topologies(const std::vector<std::string>& texts, SimTopology* out) {
  *out = SimTopology{};
  std::set<std::string_view> parts;
  for (const std::string& text : texts) {
    const std::string_view part = std::string_view(text).substr(0, text.find('='));
    RETURN_IF_ERROR(parse_topology(text, out));
    if (!parts.insert(part).second)
      return bad(text, fmt::format("{}= is given twice: give each part once", part));
    out->texts.push_back(text);
  }
  return Status::ok();
}

namespace {

// A part of the topology, or a fault, that nothing in the run would use: refused with what
// would use it.
Status refuse_unused(const SimTopology& topology, const std::vector<FaultSpec>& faults,
                     bool read_your_writes, bool ledger_fails_over) {
  if (topology.standby() && !topology.reads_on_standby && !ledger_fails_over)
    return Status::usage(
        "--topology ledger=standby changes nothing here: nothing reads the standby and no "
        "failover promotes it; add reads=standby, or --fault failover:of=ledger");
  if ((topology.ledger_sync != StandbySync::kOff || topology.max_lag_ms >= 0) && !ledger_fails_over)
    return Status::usage(
        "--topology ledger=standby:sync=/max-lag-ms= change what a failover of the ledger "
        "loses or promotes, and none comes here: add --fault failover:of=ledger");
  const bool republished = std::any_of(faults.begin(), faults.end(), [](const FaultSpec& fault) {
    return fault.kind == FaultKind::kRepublish;
  });
  if (topology.queue_dedups && !republished)
    return Status::usage(
        "--topology queue=jetstream changes nothing here: its window drops republished copies "
        "of a request, and no fault makes one (a redelivery is no publish: the window lets it "
        "through); add --fault republish");
  for (const FaultSpec& fault : faults)
    if (fault.kind == FaultKind::kReplayPause && !topology.reads_on_standby)
      return Status::usage(fmt::format(
          "fault {}: nothing reads a standby here, so a pause of its replay changes nothing: add "
          "--topology ledger=standby:reads=standby",
          fault.text));
  if (read_your_writes && !topology.reads_on_standby)
    return Status::usage(
        "--read-your-writes chooses where reads go when the standby lags: add --topology "
        "ledger=standby:reads=standby");
  return Status::ok();
}

}  // namespace

Status resolve_topology(SimTopology* topology, std::vector<FaultSpec>* faults,
                        bool read_your_writes) {
  // The replicas the failovers imply where the topology names none: as far behind as the
  // furthest failover of each says.
  const bool ledger_named = topology->ledger != LedgerShape::kServer;
  const bool guards_named = topology->guards_replica;
  bool ledger_fails_over = false;
  for (FaultSpec& fault : *faults) {
    if (fault.kind != FaultKind::kFailover) continue;
    if (fails_over_ledger(fault.of) && topology->galera())
      return Status::usage(fmt::format(
          "fault {}: a Galera cluster has no failover to make (every node takes writes); "
          "fail over a standby: --topology ledger=standby",
          fault.text));
    if (fails_over_ledger(fault.of) && !ledger_named) {
      topology->ledger_lag_ms =
          ledger_fails_over ? std::max(topology->ledger_lag_ms, fault.lag_ms) : fault.lag_ms;
      topology->ledger = LedgerShape::kStandby;
    }
    if (fails_over_guards(fault.of) && !guards_named) {
      topology->guards_lag_ms =
          topology->guards_replica ? std::max(topology->guards_lag_ms, fault.lag_ms) : fault.lag_ms;
      topology->guards_replica = true;
    }
    ledger_fails_over |= fails_over_ledger(fault.of);
  }
  for (FaultSpec& fault : *faults)
    if (fault.kind == FaultKind::kFailover && !fault.lag_given)
      fault.lag_ms =
          fails_over_ledger(fault.of) ? topology->ledger_lag_ms : topology->guards_lag_ms;
  for (const FaultSpec& fault : *faults)  // a lag spike at the failover: the store keeps it
    if (fault.kind == FaultKind::kFailover && fails_over_guards(fault.of))
      topology->guards_lag_ms = std::max(topology->guards_lag_ms, fault.lag_ms);
  return refuse_unused(*topology, *faults, read_your_writes, ledger_fails_over);
}

std::string standby_feed_words(const SimTopology& topology) {
  switch (topology.ledger_sync) {
    case StandbySync::kOff:
      return fmt::format("{} ms behind", topology.ledger_lag_ms);
    case StandbySync::kOn:
      return "synchronous (each answered commit on it)";
    case StandbySync::kStrict:
      return "synchronous, strictly (each answered commit on it, never alone)";
  }
  return "";
}

std::string topology_words(const SimTopology& topology) {
  std::vector<std::string> parts;
  if (topology.standby())
    parts.push_back(fmt::format(
        "the ledger's standby {}{}{}", standby_feed_words(topology),
        topology.max_lag_ms >= 0
            ? fmt::format(", promoted only within {} ms of its primary", topology.max_lag_ms)
            : "",
        topology.reads_on_standby ? ", read outside the write transaction" : ""));
  if (topology.galera())
    parts.push_back(fmt::format("a Galera cluster of {} nodes applying {} ms later{}",
                                topology.nodes, topology.apply_ms,
                                topology.causal_reads ? ", causal reads" : ""));
  if (topology.guards_lease)
    parts.push_back("tokens and locks in a consensus store, each lock under a lease");
  else if (topology.guards_replica)
    parts.push_back(topology.guards_sync
                        ? std::string("tokens and locks in a store with a synchronous replica")
                        : fmt::format("tokens and locks in a store with a replica {} ms behind",
                                      topology.guards_lag_ms));
  if (topology.queue_dedups)
    parts.push_back(fmt::format("a queue that drops a republished copy within {} ms",
                                topology.queue_window_ms));
  std::string out;
  for (const std::string& part : parts) out += (out.empty() ? "" : "; ") + part;
  return out;
}

}  // namespace idemlab
