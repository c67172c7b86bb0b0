#pragma once
// The challenge's JSON API on the class server (docs/class_server.md,
// "Challenge mode"): what the challenge is (template, its docs and starting
// file, goal, deadline), a display name, submitting a kernel, the student's
// own submissions with their verdicts, and the leaderboard. Every body is
// hostile: parsed without exceptions, sizes and types checked, rate-limited
// per phone, one kernel in flight per student; no student text is echoed to
// another student but a display name that passed its rule.
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "challenge/challenge_store.h"
#include "challenge/starter_cache.h"
#include "class/class_server.h"
#include "class/vote_store.h"

namespace cv::challenge {

struct ApiContext {
  std::shared_ptr<ChallengeStore> store;
  std::string backend;      // "cuda" / "cpu", shown with the times
  PathConfig paths;         // the templates' starting files
  std::shared_ptr<StarterCache> starters = std::make_shared<StarterCache>();  // read when changed
};

// Adds /api/challenge, /api/name, /api/submit, /api/submissions and
// /api/leaderboard to `server` (before it starts).
void add_challenge_routes(classvote::ClassServer& server, const std::shared_ptr<classvote::VoteStore>& votes,
                          const ApiContext& ctx);

// The leaderboard as the phones and the tab read it: rows best first (name,
// best correct median ms, whether it meets the goal; a hidden name reads
// "(hidden)"), the built-ins as reference lines. `me`: the asking device (0: none).
nlohmann::json leaderboard_json(const ChallengeStore& c, const classvote::VoteStore& votes, int me);
// One submission as its student reads it.
nlohmann::json submission_json(const Submission& s, int queue_position);

}  // namespace cv::challenge
