// `cudaviz sweep`: the plan, the per-shape runs and the CSV are tuning/sweep.h's,
// shared with the sweep window, so the CLI and the UI give the same rows.
#include <cstdio>
#include <fstream>
#include <ostream>

#include "tuning/sweep.h"

namespace cv::tuning {

int run_sweep(const SweepOptions& opt, std::ostream& out, std::ostream& err) {
  return bench::run_guarded("cudaviz sweep", opt.n, err, [&] {
    const bench::Target& t = bench::require_target(opt.target);
    bench::check_n(t, opt.n);
    const SweepPlan plan = plan_sweep(opt);
    if (!plan.note.empty()) err << "sweep " << t.name << ": " << plan.note << "\n";
    // Validate every shape before running any, so a bad one costs nothing.
    for (const BlockShape& b : opt.shapes)
      if (auto e = validate(b, block_limits(plan.backend))) throw UsageError("--shapes: " + *e);
    if (opt.csv) {  // an unwritable path is a usage error, found before the runs
      std::ofstream probe(*opt.csv + ".tmp", std::ios::app);
      if (!probe) throw UsageError("--csv: cannot write '" + *opt.csv + ".tmp'");
      probe.close();
      std::remove((*opt.csv + ".tmp").c_str());
    }
    std::vector<SweepRow> rows;
    size_t ran = 0;
    for (size_t i = 0; i < opt.shapes.size(); ++i) {
      for (auto& r : run_shape(plan, opt.shapes[i])) {
        out << r.json.dump() << "\n";
        if (r.ok)
          ++ran;
        else
          err << "sweep " << t.name << ": " << to_string(r.shape) << " refused: " << r.error
              << "\n";
        rows.push_back(std::move(r));
      }
      out.flush();
      err << "sweep " << t.name << ": " << (i + 1) << "/" << opt.shapes.size() << " "
          << to_string(opt.shapes[i]) << " done\n";
    }
    if (opt.csv)
      if (auto e = write_csv(*opt.csv, rows)) throw std::runtime_error(*e);
    if (ran == 0 && !rows.empty())
      throw UsageError("every shape was refused by " + t.name + " " + plan.variant);
  });
}

}  // namespace cv::tuning
