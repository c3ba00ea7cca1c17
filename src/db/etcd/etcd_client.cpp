// etcd's JSON gateway over libcurl, member after member.
#include "db/etcd/etcd_client.h"

#include <fmt/format.h>

#include <charconv>

namespace idemlab {

namespace {

size_t append(char* data, size_t size, size_t count, void* out) {
  static_cast<std::string*>(out)->append(data, size * count);
  return size * count;
}

StepResult lost(std::string error) {
  StepResult result;
  result.code = StepCode::kConnectionLost;
  result.error = std::move(error);
  return result;
}

}  // namespace

int64_t etcd_number(const nlohmann::json& value) {
  if (value.is_number_integer()) return value.get<int64_t>();
  if (!value.is_string()) return 0;
  const std::string& text = value.get_ref<const std::string&>();
  int64_t out = 0;
  std::from_chars(text.data(), text.data() + text.size(), out);
  return out;
}

EtcdClient::~EtcdClient() {
  if (curl_) api_->cleanup(curl_);
}

CURLcode EtcdClient::send(const std::string& member, std::string_view path, const std::string& body,
                          std::string* answer, long* http) {
  if (!curl_) curl_ = api_->init();
  if (!curl_) return CURLE_FAILED_INIT;
  const std::string url = fmt::format("http://{}{}", member, path);
  const long timeout_ms = long{locator_.connect_timeout_s} * 1000;
  curl_slist* headers = api_->slist_append(nullptr, "Content-Type: application/json");
  api_->setopt(curl_, CURLOPT_URL, url.c_str());
  api_->setopt(curl_, CURLOPT_HTTPHEADER, headers);
  api_->setopt(curl_, CURLOPT_POSTFIELDS, body.c_str());
  api_->setopt(curl_, CURLOPT_POSTFIELDSIZE, static_cast<long>(body.size()));
  api_->setopt(curl_, CURLOPT_WRITEFUNCTION, append);
  api_->setopt(curl_, CURLOPT_WRITEDATA, answer);
  api_->setopt(curl_, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
  api_->setopt(curl_, CURLOPT_TIMEOUT_MS, timeout_ms);
  api_->setopt(curl_, CURLOPT_NOSIGNAL, 1L);
  api_->setopt(curl_, CURLOPT_NOPROXY, "*");
  const CURLcode code = api_->perform(curl_);
  api_->slist_free_all(headers);
  if (code == CURLE_OK) api_->getinfo(curl_, CURLINFO_RESPONSE_CODE, http);
  return code;
}

StepResult EtcdClient::post(std::string_view path, const nlohmann::json& body,
                            nlohmann::json* reply, long* http) {
  const std::string text = body.dump();
  std::string refusals;
  for (size_t tried = 0; tried < locator_.members.size(); ++tried) {
    const size_t at = (current_ + tried) % locator_.members.size();
    const std::string& member = locator_.members[at];
    std::string answer;
    *http = 0;
    const CURLcode code = send(member, path, text, &answer, http);
    if (code == CURLE_COULDNT_CONNECT || (code == CURLE_OK && *http >= 500)) {
      refusals += fmt::format(
          "{}{}: {}", refusals.empty() ? "" : "; ", member,
          code == CURLE_OK ? fmt::format("HTTP {} {}", *http, answer) : api_->strerror(code));
      continue;  // nothing was done there: the next member
    }
    if (code != CURLE_OK)
      return lost(fmt::format("etcd {} at {}: {} (it may or may not have been done)", path, member,
                              api_->strerror(code)));
    current_ = at;
    *reply = nlohmann::json::parse(answer, nullptr, false);
    if (reply->is_discarded())
      return lost(fmt::format("etcd {} at {}: HTTP {} with no JSON: {}", path, member, *http,
                              answer.substr(0, 200)));
    return {};
  }
  return lost(fmt::format("no etcd member of {} took {}: {}", locator_.shown, path, refusals));
}

}  // namespace idemlab
