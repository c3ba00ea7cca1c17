// The report's "On replicated servers" section, from the pitfalls `explain` lists.
#include "report/replication_section.h"

#include <fmt/format.h>

#include "lessons/lesson.h"
#include "report/markup.h"
#include "strategies/replication_pitfalls.h"

namespace idemlab {

namespace {

// One row: the pitfall, where its guard lives, what goes wrong, the fix, and what shows it.
std::string pitfall_row(const ReplicationPitfall& p) {
  const Lesson* lesson = find_lesson(std::string(p.lesson));
  const std::string run =
      lesson ? fmt::format("<code>{}</code><br>", markup_text(lesson_invocation(*lesson))) : "";
  return fmt::format(
      "<tr><td><b>{}</b></td><td>{}</td><td>{}</td><td>{}</td><td>{}checked by <code>{}</code>"
      "; audit: <code>{}</code></td></tr>\n",
      markup_text(p.name), markup_text(p.deployment), markup_text(p.goes_wrong), markup_text(p.fix),
      run, markup_text(p.shown_by), markup_text(p.audit_kind));
}

// Which of the matrix's scenarios ran the simulator's model of a replicated topology.
std::string modelled_text(const ReportData& data) {
  std::string list;
  int count = 0;
  for (const ScenarioRun& run : data.matrix) {
    if (run.topology.empty()) continue;
    list += fmt::format("{}<b>{}</b> ({})", list.empty() ? "" : "; ", markup_text(run.scenario),
                        markup_text(run.topology));
    ++count;
  }
  if (count == 0)
    return "The matrix above ran no scenario on a replicated topology (the simulator's models "
           "of them: <code>idemlab simulate --topology</code>). ";
  return fmt::format(
      "The matrix above ran the simulator's model of these topologies in {} of its scenarios: "
      "{}. ",
      count, list);
}

}  // namespace

std::string replication_section(const ReportData& data) {
  std::string out =
      "<section class=\"card\" id=\"replication\"><h2>On replicated servers</h2>\n"
      "<p>Code that is exactly once on one server can move money twice, or never, once its "
      "guard is read from a standby or a cluster node that lags, kept in a store that forgets "
      "at a failover, or trusted as a lock that can have two holders. " +
      modelled_text(data) +
      "The cases below run on the real servers, which this page does not start: a PostgreSQL "
      "standby, Redis behind Sentinels, ZooKeeper, a Galera cluster (<code>scripts/servers up "
      "postgres-standby redis-sentinel zookeeper galera</code>). Each names the lesson that "
      "runs it on those servers and the test that checks it; <code>idemlab explain "
      "STRATEGY</code> says what each does to that strategy.</p>\n";
  out +=
      "<table class=\"legend\"><tr><th>pitfall</th><th>where the guard lives</th><th>what goes "
      "wrong</th><th>the fix</th><th>shown by</th></tr>\n";
  for (const ReplicationPitfall& p : replication_pitfalls()) out += pitfall_row(p);
  return out + "</table></section>\n";
}

}  // namespace idemlab
