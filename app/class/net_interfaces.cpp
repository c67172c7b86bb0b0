#include "class/net_interfaces.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>

#include <algorithm>

namespace cv::classvote {

std::string NetInterface::label() const {
  return address + " (" + name + (loopback ? ": this machine only)" : ")");
}

std::vector<NetInterface> list_interfaces() {
  std::vector<NetInterface> out;
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return {{"lo", "127.0.0.1", true}};
  for (ifaddrs* i = list; i; i = i->ifa_next) {
    if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || !(i->ifa_flags & IFF_UP)) continue;
    char buf[INET_ADDRSTRLEN] = "";
    inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(i->ifa_addr)->sin_addr, buf, sizeof buf);
    out.push_back({i->ifa_name, buf, (i->ifa_flags & IFF_LOOPBACK) != 0});
  }
  freeifaddrs(list);
  std::stable_partition(out.begin(), out.end(), [](const NetInterface& n) { return !n.loopback; });
  if (std::none_of(out.begin(), out.end(), [](const NetInterface& n) { return n.loopback; }))
    out.push_back({"lo", "127.0.0.1", true});
  return out;
}

std::string default_address(const std::vector<NetInterface>& all) {
  for (const auto& n : all)
    if (!n.loopback) return n.address;
  return "127.0.0.1";
}

bool one_ipv4_address(const std::string& text) {
  in_addr a{};
  return inet_pton(AF_INET, text.c_str(), &a) == 1 && a.s_addr != htonl(INADDR_ANY);
}

}  // namespace cv::classvote
