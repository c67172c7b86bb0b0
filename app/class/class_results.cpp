#include "class/class_results.h"

#include <algorithm>
#include <cstdio>

namespace cv::classvote {

namespace {

std::string field(const std::string& s) {
  std::string v = s;
  if (!v.empty() && (v[0] == '=' || v[0] == '+' || v[0] == '-' || v[0] == '@')) v = "'" + v;
  if (v.find_first_of(",\"\n\r") == std::string::npos) return v;
  std::string q = "\"";
  for (char c : v) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

template <class T, class F>
std::string joined(const std::vector<T>& v, F fmt) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : " | ") + fmt(x);
  return s;
}

}  // namespace

std::optional<double> median(std::vector<double> xs) {
  if (xs.empty()) return std::nullopt;
  std::sort(xs.begin(), xs.end());
  const size_t n = xs.size();
  return n % 2 ? xs[n / 2] : (xs[n / 2 - 1] + xs[n / 2]) / 2;
}

std::string to_csv(const std::vector<StepVotes>& rows) {
  std::string out =
      "step,title,question,kind,choices,counts,voted,joined,median,unit,measured,measured_value,"
      "correct_choice,verdict\n";
  for (const StepVotes& r : rows) {
    const auto med = median(r.numbers);
    out += std::to_string(r.step) + "," + field(r.title) + "," + field(r.question) + "," +
           field(r.kind) + "," + field(joined(r.choices, [](const std::string& s) { return s; })) +
           "," + field(joined(r.counts, [](int c) { return std::to_string(c); })) + "," +
           std::to_string(r.voted) + "," + std::to_string(r.joined) + "," +
           (med ? number(*med) : "") + "," + field(r.unit) + "," + field(r.measured) + "," +
           (r.measured_value ? number(*r.measured_value) : "") + "," +
           (r.correct_choice >= 0 && r.correct_choice < static_cast<int>(r.choices.size())
                ? field(r.choices[r.correct_choice])
                : "") +
           "," + field(r.verdict) + "\n";
  }
  return out;
}

nlohmann::ordered_json to_json(const std::vector<StepVotes>& rows) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (const StepVotes& r : rows) {
    nlohmann::ordered_json j;
    j["step"] = r.step;
    j["title"] = r.title;
    j["question"] = r.question;
    j["kind"] = r.kind;
    if (r.kind == "choice") {
      j["choices"] = r.choices;
      j["counts"] = r.counts;
    } else {
      j["unit"] = r.unit;
      j["numbers"] = r.numbers;
      if (auto m = median(r.numbers)) j["median"] = *m;
    }
    j["voted"] = r.voted;
    j["joined"] = r.joined;
    j["measured"] = r.measured;
    if (r.measured_value) j["measured_value"] = *r.measured_value;
    if (r.correct_choice >= 0 && r.correct_choice < static_cast<int>(r.choices.size()))
      j["correct_choice"] = r.choices[r.correct_choice];
    j["verdict"] = r.verdict;
    a.push_back(j);
  }
  return a;
}

}  // namespace cv::classvote
