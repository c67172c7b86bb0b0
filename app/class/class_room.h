#pragma once
// The class voting from phones (docs/class_server.md), as the app
// holds it: off until the teacher starts it (the lesson tab's "let the class
// vote", or --class-server), then a VoteStore with a new join code, the
// ClassServer on the chosen address, and the QR code of its address. The
// frame reads the store's snapshot once (poll); the lesson player publishes
// its steps and reveals through store().
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "class/class_server.h"
#include "class/net_interfaces.h"
#include "class/qr.h"
#include "class/vote_store.h"

namespace cv::ui {
class Layout;
}

namespace cv::classvote {

// The students' page: web/ of the shipped data (io/data_dir.h; `assets` is
// $CUDAVIZ_ASSETS or ""), "" when no data folder is found.
std::string web_dir(const std::string& assets);

class ClassRoom {
 public:
  // `web_dir`: assets/web (the students' page); `codemirror_dir`: the
  // packaged editor the challenge page uses ("" : none).
  explicit ClassRoom(std::string web_dir, std::string codemirror_dir = "");
  ~ClassRoom();

  // Called on every start, before the server listens: more routes (the
  // challenge's API) on the new server over the new store.
  using RouteHook = std::function<void(ClassServer&, const std::shared_ptr<VoteStore>&)>;
  void set_route_hook(RouteHook hook) { route_hook_ = std::move(hook); }

  // A new join code, the server on address:port (0: any free port). Prints
  // "class server: http://ADDRESS:PORT/ code CODE" on stdout. The reason it
  // could not start otherwise (also kept for the panel); the app runs on.
  std::optional<std::string> start(const std::string& address, int port,
                                   ServerOptions limits = {});
  // Stops the server without waiting: the server's threads end on a thread of
  // their own (up to 2 s), never in the frame.
  void stop();
  bool running() const { return server_ && server_->running(); }
  const std::string& url() const { return url_; }
  const std::string& code() const { return code_; }
  const std::string& message() const { return message_; }
  VoteStore* store() { return running() ? store_.get() : nullptr; }
  const ClassServer* server() const { return server_.get(); }

  // Once a frame: the store's latest snapshot (lock-free), and how long each
  // vote first seen now took from the server to this frame.
  void poll();
  const Tally& tally() const { return *tally_; }

  // The teacher's choices (the lesson tab): counts hidden from the projector
  // until the reveal (peer instruction), the QR code shown or folded away.
  bool hide_counts = false;
  bool show_qr = true;

  // For the --frames summary: address, joined, votes, the vote-to-frame latency.
  nlohmann::ordered_json summary() const;

  // The panel beside the scene (class/class_panel.cpp): address, QR, code, counts.
  void draw(ui::Layout& layout);
  // The start/stop controls with the menu of interfaces (in the lesson tab).
  // A click asks; poll() starts or stops, between frames' drawing.
  void draw_controls();
  // The teacher's limits (class size, joins per address per minute) and the
  // devices that joined, each removable (class/class_devices.cpp).
  void draw_devices();
  ClassServer* server() { return server_.get(); }

 private:
  std::string web_dir_, codemirror_dir_;
  RouteHook route_hook_;
  int class_cap_ = 2000;
  int joins_per_minute_ = 20;
  bool block_removed_ = true;
  std::shared_ptr<VoteStore> store_;  // shared with a server that is stopping
  std::unique_ptr<ClassServer> server_;
  std::thread stopping_;  // joined before the next start and at the end
  std::shared_ptr<const Tally> tally_;
  std::optional<QrCode> qr_;
  std::string url_, code_, message_;
  uint64_t seen_seq_ = 0;
  std::vector<float> latency_ms_;  // vote accepted -> first frame that saw it
  // The controls' state.
  std::vector<NetInterface> interfaces_;
  int chosen_ = 0;
  int port_field_ = kDefaultPort;
  bool start_request_ = false, stop_request_ = false;
};

}  // namespace cv::classvote
