//===- report/model/ExportFields.h - Tables of JSON keys --------*- C++ -*-===//
//
// The machinery of model/ProfileJson.cpp, which alone includes it: a part of
// the JSON export is a table of Field<T>, one per key of ExportKeys.def,
// each with the key's writer (KeyOut) and its reader (KeyIn) side by side;
// coversPart() checks a table against the .def. Reading remembers the first
// problem, as "<where>: <what>".
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_MODEL_EXPORTFIELDS_H
#define TPUPROF_REPORT_MODEL_EXPORTFIELDS_H

#include "tpuprof/report/ExportKeys.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace tpuprof {
namespace report {
namespace exportfields {

//===----------------------------------------------------------------------===//
// Reading one object
//===----------------------------------------------------------------------===//

/// Reads fields of one JSON object, remembering the first problem.
class Fields {
public:
  /// `path` says where the object sits ("rows[3].memory"; "" for the top
  /// level) in error messages.
  Fields(const llvm::json::Object *o, std::string path, std::string *error)
      : o(o), path(std::move(path)), error(error) {}

  uint64_t u64(llvm::StringRef key) {
    if (const llvm::json::Value *v = get(key)) {
      if (std::optional<uint64_t> x = v->getAsUINT64())
        return *x;
      fail(key, "an unsigned integer");
    }
    return 0;
  }
  int64_t i64(llvm::StringRef key) {
    if (const llvm::json::Value *v = get(key)) {
      if (std::optional<int64_t> x = v->getAsInteger())
        return *x;
      fail(key, "an integer");
    }
    return 0;
  }
  std::string str(llvm::StringRef key) {
    if (const llvm::json::Value *v = get(key)) {
      if (std::optional<llvm::StringRef> x = v->getAsString())
        return x->str();
      fail(key, "a string");
    }
    return "";
  }
  bool boolean(llvm::StringRef key) {
    if (const llvm::json::Value *v = get(key)) {
      if (std::optional<bool> x = v->getAsBoolean())
        return *x;
      fail(key, "a boolean");
    }
    return false;
  }
  const llvm::json::Array *array(llvm::StringRef key) {
    if (const llvm::json::Value *v = get(key)) {
      if (const llvm::json::Array *a = v->getAsArray())
        return a;
      fail(key, "an array");
    }
    return nullptr;
  }
  std::vector<uint64_t> u64s(llvm::StringRef key) {
    std::vector<uint64_t> out;
    if (const llvm::json::Array *a = array(key))
      for (const llvm::json::Value &v : *a) {
        std::optional<uint64_t> x = v.getAsUINT64();
        if (!x) {
          fail(key, "an array of unsigned integers");
          break;
        }
        out.push_back(*x);
      }
    return out;
  }

  /// The object at `key`, to read its fields.
  Fields child(llvm::StringRef key) {
    return Fields(object(key), pathOf(key), error);
  }
  /// Element `n` of the array at `key` (`array` is that array), as an
  /// object to read its fields.
  Fields element(const llvm::json::Array &array, llvm::StringRef key,
                 size_t n) {
    return Fields(array[n].getAsObject(),
                  pathOf(key) + "[" + llvm::utostr(n) + "]", error);
  }

  /// Whether an optional key is present.
  bool has(llvm::StringRef key) const { return o && o->get(key); }
  /// Whether the key is present and null.
  bool isNull(llvm::StringRef key) const {
    const llvm::json::Value *v = o ? o->get(key) : nullptr;
    return v && v->kind() == llvm::json::Value::Null;
  }

  /// Records `what` as the problem with this object, unless one came first.
  void fail(const llvm::Twine &what) {
    if (error->empty())
      *error = where() + ": " + what.str();
  }
  bool ok() const { return error->empty(); }

private:
  const llvm::json::Object *object(llvm::StringRef key) {
    if (const llvm::json::Value *v = get(key)) {
      if (const llvm::json::Object *x = v->getAsObject())
        return x;
      fail(key, "an object");
    }
    return nullptr;
  }
  const llvm::json::Value *get(llvm::StringRef key) {
    const llvm::json::Value *v = o ? o->get(key) : nullptr;
    if (!v && error->empty())
      *error = where() + ": missing '" + key.str() + "'";
    return v;
  }
  void fail(llvm::StringRef key, llvm::StringRef what) {
    fail("'" + key + "' is not " + what);
  }
  std::string where() const { return path.empty() ? "top level" : path; }
  std::string pathOf(llvm::StringRef key) const {
    return path.empty() ? key.str() : path + "." + key.str();
  }

  const llvm::json::Object *o;
  std::string path;
  std::string *error;
};

//===----------------------------------------------------------------------===//
// Table entries: a key, its writer and its reader
//===----------------------------------------------------------------------===//

class KeyOut;
class KeyIn;

/// One key of a part: how to write it from a T and how to read it into one.
template <class T> struct Field {
  ExportKey key;
  void (*write)(KeyOut &, const T &);
  void (*read)(KeyIn &, T &);
};

/// What the writers need beyond the value they write.
struct WriteContext {
  uint64_t approxBelowNs = 0; ///< approxBelowNs() of the profile written.
};

template <class T, size_t N>
void writeFields(const Field<T> (&fields)[N], const T &value,
                 llvm::json::OStream &j, const WriteContext &ctx);
template <class T, size_t N>
void readFields(const Field<T> (&fields)[N], Fields &in, T &value);

/// The writer's side of an entry: its key in the object being written.
class KeyOut {
public:
  KeyOut(llvm::json::OStream &j, ExportKey key, const WriteContext &ctx)
      : j(j), name(exportKeyName(key)), ctx(ctx) {}

  void value(const llvm::json::Value &v) { j.attribute(name, v); }
  template <class Range> void values(const Range &range) {
    j.attributeArray(name, [&] {
      for (const auto &v : range)
        j.value(v);
    });
  }
  /// An object of part `fields`.
  template <class T, size_t N>
  void object(const Field<T> (&fields)[N], const T &v) {
    j.attributeObject(name, [&] { writeFields(fields, v, j, ctx); });
  }
  /// An array of objects of part `fields`.
  template <class T, size_t N>
  void objects(const Field<T> (&fields)[N], const std::vector<T> &vs) {
    j.attributeArray(name, [&] {
      for (const T &v : vs)
        j.object([&] { writeFields(fields, v, j, ctx); });
    });
  }

  llvm::json::OStream &j;
  llvm::StringRef name;
  const WriteContext &ctx;
};

/// The reader's side of an entry: its key in the object being read.
class KeyIn {
public:
  KeyIn(Fields &in, ExportKey key) : in(in), name(exportKeyName(key)) {}

  /// Whether the key (or another of the same object) is present: readers
  /// of keys that older exports lack look first.
  bool present() const { return in.has(name); }
  bool present(ExportKey other) const { return in.has(exportKeyName(other)); }
  bool isNull() const { return in.isNull(name); }

  uint64_t u64() { return in.u64(name); }
  int64_t i64() { return in.i64(name); }
  std::string str() { return in.str(name); }
  bool boolean() { return in.boolean(name); }
  std::vector<uint64_t> u64s() { return in.u64s(name); }
  /// The array's strings; elements that are none read as "".
  std::vector<std::string> strings() {
    std::vector<std::string> out;
    if (const llvm::json::Array *a = in.array(name))
      for (const llvm::json::Value &v : *a)
        out.push_back(v.getAsString().value_or("").str());
    return out;
  }

  /// Reads into `v` as its type says.
  void read(std::string &v) { v = str(); }
  void read(bool &v) { v = boolean(); }
  template <class V> std::enable_if_t<std::is_integral_v<V>> read(V &v) {
    v = V(u64());
  }

  /// An object of part `fields`.
  template <class T, size_t N> void object(const Field<T> (&fields)[N], T &v) {
    Fields child = in.child(name);
    readFields(fields, child, v);
  }
  /// An array of objects of part `fields`, up to the first problem.
  template <class T, size_t N>
  void objects(const Field<T> (&fields)[N], std::vector<T> &vs) {
    if (const llvm::json::Array *a = in.array(name))
      for (size_t n = 0; n != a->size() && in.ok(); ++n) {
        Fields element = in.element(*a, name, n);
        T v;
        readFields(fields, element, v);
        vs.push_back(std::move(v));
      }
  }

  void fail(const llvm::Twine &what) { in.fail(what); }
  bool ok() const { return in.ok(); }

private:
  Fields &in;
  llvm::StringRef name;
};

template <class T, size_t N>
void writeFields(const Field<T> (&fields)[N], const T &value,
                 llvm::json::OStream &j, const WriteContext &ctx) {
  for (const Field<T> &f : fields) {
    KeyOut out(j, f.key, ctx);
    f.write(out, value);
  }
}

template <class T, size_t N>
void readFields(const Field<T> (&fields)[N], Fields &in, T &value) {
  for (const Field<T> &f : fields) {
    KeyIn key(in, f.key);
    f.read(key, value);
  }
}

/// Whether `fields` has one entry, with a writer and a reader, for each key
/// of `part` in ExportKeys.def, in its order, and no other.
template <class T, size_t N>
constexpr bool coversPart(ExportPart part, const Field<T> (&fields)[N]) {
  size_t n = 0;
  for (size_t k = 0; k != kNumExportKeys; ++k) {
    if (kExportKeyParts[k] != part)
      continue;
    if (n == N || size_t(fields[n].key) != k || !fields[n].write ||
        !fields[n].read)
      return false;
    ++n;
  }
  return n == N;
}

// Plain entries: the value at a member path of T (e.g. &DumpSummary::info,
// &DumpInfo::pid), written as it is and read as its type says.

template <class M> struct MemberOf;
template <class C, class V> struct MemberOf<V C::*> {
  using Class = C;
};
template <auto First, auto...> struct PathOf {
  using Class = typename MemberOf<decltype(First)>::Class;
};

template <auto First, auto... Rest, class T> constexpr decltype(auto) at(T &v) {
  if constexpr (sizeof...(Rest) == 0)
    return (v.*First);
  else
    return at<Rest...>(v.*First);
}

template <ExportKey Key, auto... Path> constexpr auto plain() {
  using T = typename PathOf<Path...>::Class;
  return Field<T>{Key,
                  [](KeyOut &out, const T &v) { out.value(at<Path...>(v)); },
                  [](KeyIn &in, T &v) { in.read(at<Path...>(v)); }};
}

/// A plain entry that exports from before the key lack: read when present.
template <ExportKey Key, auto... Path> constexpr auto optionalPlain() {
  using T = typename PathOf<Path...>::Class;
  return Field<T>{Key,
                  [](KeyOut &out, const T &v) { out.value(at<Path...>(v)); },
                  [](KeyIn &in, T &v) {
                    if (in.present())
                      in.read(at<Path...>(v));
                  }};
}

/// The reader of a key whose value the reader computes from the others
/// (totals, approx), as the writer did.
template <class T> void derivedFromTheRest(KeyIn &, T &) {}

} // namespace exportfields
} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_MODEL_EXPORTFIELDS_H
