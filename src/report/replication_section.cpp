// The report's "On replicated servers" section, from the pitfalls `explain` lists.
#include "report/replication_section.h"

#include <fmt/format.h>

#include "lessons/lesson.h"
#include "report/markup.h"
#include "strategies/replication_pitfalls.h"

namespace idemlab {

namespace {

// One pitfall, a slide of its own: where its guard lives, what goes wrong, the fix, and the
// lesson and test that show it.
std::string pitfall_card(const ReplicationPitfall& p) {
  const Lesson* lesson = find_lesson(std::string(p.lesson));
  const std::string run =
      lesson ? fmt::format("<code>{}</code>; ", markup_text(lesson_invocation(*lesson))) : "";
  return fmt::format(
      "<div class=\"card slide\" id=\"pitfall-{0}\"><h3>{0}</h3><table class=\"legend\">"
      "<tr><th>where the guard lives</th><td>{1}</td></tr><tr><th>what goes wrong</th><td>{2}"
      "</td></tr><tr><th>the fix</th><td>{3}</td></tr><tr><th>shown by</th><td>{4}checked by "
      "<code>{5}</code>; audit: <code>{6}</code></td></tr></table></div>\n",
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

// The section is a slide of introduction, then one per pitfall: together they would not fit
// one 1280x720 slide.
std::string replication_section(const ReportData& data) {
  std::string out =
      "<section id=\"replication\"><div class=\"card slide\"><h2>On replicated servers</h2>\n"
      "<p>Code that is exactly once on one server can move money twice, or never, once its "
      "guard is read from a standby or a cluster node that lags, kept in a store that forgets "
      "at a failover, or trusted as a lock that can have two holders. " +
      modelled_text(data) +
      "The cases below run on the real servers, which this page does not start: a PostgreSQL "
      "standby, Redis behind Sentinels, ZooKeeper, a Galera cluster (<code>scripts/servers up "
      "postgres-standby redis-sentinel zookeeper galera</code>). Each names the lesson that "
      "runs it on those servers and the test that checks it; <code>idemlab explain "
      "STRATEGY</code> says what each does to that strategy.</p></div>\n";
  for (const ReplicationPitfall& p : replication_pitfalls()) out += pitfall_card(p);
  return out + "</section>\n";
}

}  // namespace idemlab
