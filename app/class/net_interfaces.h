#pragma once
// The machine's IPv4 addresses, for the teacher's menu of where the class
// server listens (one interface, never every one).
#include <string>
#include <vector>

namespace cv::classvote {

struct NetInterface {
  std::string name;     // "wlan0", "lo"
  std::string address;  // "192.168.1.23"
  bool loopback = false;
  std::string label() const;  // "192.168.1.23 (wlan0)", "127.0.0.1 (lo: this machine only)"
};

// Interfaces that are up, loopback last.
std::vector<NetInterface> list_interfaces();
// The one a class can reach: the first that is not loopback, else 127.0.0.1.
std::string default_address(const std::vector<NetInterface>& all);
// True for a dotted IPv4 address other than 0.0.0.0 (which is every interface).
bool one_ipv4_address(const std::string& text);

}  // namespace cv::classvote
