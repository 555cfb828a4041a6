#include "session_manager.h"

namespace treering::tracker {

void SessionManager::Start(std::shared_ptr<Session> session) {
  auto raw = session.get();
  sessions_[raw->id()] = std::move(session);
  raw->Start();
}

void SessionManager::StartAnonymous(std::shared_ptr<Session> session, std::size_t cap) {
  while (!anonymous_.empty() && anonymous_.size() >= cap) {
    const std::uint64_t oldest = *anonymous_.begin();
    anonymous_.erase(anonymous_.begin());
    if (auto s = Find(oldest)) s->Stop();  // its read fails and it removes itself
  }
  anonymous_.insert(session->id());
  Start(std::move(session));
}

void SessionManager::Identified(std::uint64_t id) { anonymous_.erase(id); }

void SessionManager::Remove(std::uint64_t id) {
  sessions_.erase(id);
  anonymous_.erase(id);
}

std::shared_ptr<Session> SessionManager::Find(std::uint64_t id) const {
  auto it = sessions_.find(id);
  return it == sessions_.end() ? nullptr : it->second;
}

// Both take the map first: a stopping session may call Remove() on its way out.
void SessionManager::FinishAll() {
  auto all = std::move(sessions_);
  sessions_.clear();
  anonymous_.clear();
  for (auto& [id, s] : all) s->OnJobSucceeded();
}

void SessionManager::AbortAll(const std::string& reason) {
  auto all = std::move(sessions_);
  sessions_.clear();
  anonymous_.clear();
  for (auto& [id, s] : all) s->Abort(reason);
}

}  // namespace treering::tracker
