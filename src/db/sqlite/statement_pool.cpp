// The pool's connections, lent a statement at a time and kept by an open transaction.
#include "db/sqlite/statement_pool.h"

namespace idemlab {

// A pooled connection: a Backend whose every call borrows one of the pool's connections.
class PooledBackend final : public Backend {
  // What the pool's first connection says of them all.
  Backend& any() const { return pool_->all_.front()->backend(); }

  // Runs `call` on the connection this one holds, or on one borrowed for it.
  template <class Call>
  auto lent(Call call) {
    Connection* connection = held_;
    if (!connection) {
      Result<Connection*> borrowed = pool_->borrow();
      if (!borrowed.is_ok()) return failed<decltype(call(any()))>(borrowed.status());
      connection = borrowed.value();
    }
    if (trace_) connection->set_trace(trace_);
    auto result = call(connection->backend());
    if (trace_) connection->set_trace({});
    settle(connection);
    return result;
  }
  // After a statement: an open transaction keeps the connection; otherwise it goes back.
  void settle(Connection* connection) {
    held_ = connection->in_transaction() ? connection : nullptr;
    if (!held_) pool_->give_back(connection);
  }
  template <class Answer>
  static Answer failed(const Status& status) {
    if constexpr (std::is_same_v<Answer, Status>)
      return status;
    else
      return StepResult{StepCode::kError, 0, std::nullopt, status.message()};
  }

 public:
  explicit PooledBackend(StatementPool& pool) : pool_(&pool) {}
  ~PooledBackend() override { rollback_if_open(); }  // as closing a connection of its own does

  Engine engine() const override { return any().engine(); }
  StepResult run(Stmt id, const Binds& binds) override {
    return lent([&](Backend& backend) { return backend.run(id, binds); });
  }
  std::string_view statement_text(Stmt id) const override { return any().statement_text(id); }
  StepResult query(std::string_view sql, const Binds& binds, const RowSink* on_row) override {
    return lent([&](Backend& backend) { return backend.query(sql, binds, on_row); });
  }
  Status exec_script(const char* sql) override {
    return lent([&](Backend& backend) { return backend.exec_script(sql); });
  }
  bool in_transaction() const override { return held_ != nullptr; }
  void rollback_if_open() override {
    if (!held_) return;
    held_->rollback_if_open();
    settle(held_);
  }
  void set_trace(TraceSink sink) override { trace_ = std::move(sink); }
  const std::string& location() const override { return any().location(); }
  std::string isolation() const override { return any().isolation(); }
  bool damaged() const override {
    for (const auto& connection : pool_->all_)
      if (connection->damaged()) return true;
    return false;
  }

 private:
  StatementPool* pool_;
  Connection* held_ = nullptr;  // kept by an open transaction
  TraceSink trace_;
};

Result<std::unique_ptr<StatementPool>> StatementPool::create(Open open) {
  std::unique_ptr<StatementPool> pool(new StatementPool(std::move(open)));
  ASSIGN_OR_RETURN(Connection * first, pool->borrow());
  pool->give_back(first);
  return pool;
}

Connection StatementPool::connect() {
  return Connection(std::make_unique<PooledBackend>(*this));
}

Result<Connection*> StatementPool::borrow() {
  if (!free_.empty()) {
    Connection* connection = free_.back();
    free_.pop_back();
    return connection;
  }
  ASSIGN_OR_RETURN(Connection connection, open_());
  all_.push_back(std::make_unique<Connection>(std::move(connection)));
  return all_.back().get();
}

}  // namespace idemlab
