#pragma once
// The command line of kprim's performance programs (kprim-bench, kprim-table, the CUDA tuning
// tools): --name=VALUE and --name options, --help, and unknown options as errors. Kokkos' own
// --kokkos-* flags are taken out of argv by Kokkos::initialize before this parser sees them;
// kprim-bench hands what starts with --benchmark_ to Google Benchmark.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace kprim_perf {

/// One option: `--name=VALUE` when value_name is set (set(VALUE)), else the flag `--name` (set("")).
struct Option {
  std::string name;
  std::string value_name;
  std::string help;
  std::function<void(const std::string&)> set;
};

/// The program's command line: its options, free arguments (e.g. kprim-table's log2 sizes), and
/// options left to another parser (by prefix).
class Arguments {
 public:
  Arguments(std::string program, std::string summary) : program_(std::move(program)), summary_(std::move(summary)) {}

  Arguments& option(std::string name, std::string value_name, std::string help, std::function<void(const std::string&)> set) {
    options_.push_back({std::move(name), std::move(value_name), std::move(help), std::move(set)});
    return *this;
  }
  /// Free (non-option) arguments go to `take`, described as `usage` in --help.
  Arguments& positional(std::string usage, std::function<void(const std::string&)> take) {
    positional_usage_ = std::move(usage);
    positional_ = std::move(take);
    return *this;
  }
  /// The program does not use Kokkos (no --kokkos-... flags in --help).
  Arguments& without_kokkos() {
    kokkos_ = false;
    return *this;
  }
  /// Options starting with `prefix` are kept for another parser (passed_through()).
  Arguments& pass_through(std::string prefix, std::string help) {
    pass_prefix_ = std::move(prefix);
    pass_help_ = std::move(help);
    return *this;
  }

  /// Parses argv[1..argc). --help / -h prints the usage and exits 0; an unknown option or a value
  /// missing prints the usage to stderr and exits 2.
  void parse(int argc, char** argv) {
    for (int a = 1; a < argc; ++a) {
      const std::string arg = argv[a];
      if (arg == "--help" || arg == "-h") {
        usage(stdout);
        std::exit(0);
      }
      if (!pass_prefix_.empty() && arg.rfind(pass_prefix_, 0) == 0) {
        passed_.push_back(argv[a]);
        continue;
      }
      if (arg.rfind("-", 0) != 0 || arg == "-") {
        if (!positional_) fail("unexpected argument '" + arg + "'");
        positional_(arg);
        continue;
      }
      bool known = false;
      for (const Option& o : options_) {
        const std::string key = "--" + o.name;
        if (o.value_name.empty() ? arg == key : arg.rfind(key + "=", 0) == 0) {
          o.set(o.value_name.empty() ? std::string() : arg.substr(key.size() + 1));
          known = true;
          break;
        }
      }
      if (!known) fail("unknown option '" + arg + "'");
    }
  }

  /// The options left to another parser, after argv[0].
  const std::vector<char*>& passed_through() const { return passed_; }

  void usage(std::FILE* to) const {
    std::fprintf(to, "%s\n\nusage: %s [options]%s%s\n", summary_.c_str(), program_.c_str(),
                 positional_usage_.empty() ? "" : " ", positional_usage_.c_str());
    for (const Option& o : options_) {
      const std::string left = "--" + o.name + (o.value_name.empty() ? "" : "=" + o.value_name);
      std::fprintf(to, "  %-26s %s\n", left.c_str(), o.help.c_str());
    }
    std::fprintf(to, "  %-26s %s\n", "--help", "this text");
    if (!pass_prefix_.empty()) std::fprintf(to, "  %-26s %s\n", (pass_prefix_ + "...").c_str(), pass_help_.c_str());
    if (kokkos_) std::fprintf(to, "  %-26s %s\n", "--kokkos-...", "Kokkos' own flags (e.g. --kokkos-num-threads=N)");
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    std::fprintf(stderr, "%s: %s\n\n", program_.c_str(), what.c_str());
    usage(stderr);
    std::exit(2);
  }

  std::string program_, summary_, positional_usage_, pass_prefix_, pass_help_;
  std::vector<Option> options_;
  std::function<void(const std::string&)> positional_;
  std::vector<char*> passed_;
  bool kokkos_ = true;
};

/// A positive integer option value, or exit 2 naming the option.
inline int positive_int(const std::string& value, const char* option) {
  char* end = nullptr;
  const long v = std::strtol(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || v <= 0 || v > 1 << 30) {
    std::fprintf(stderr, "%s wants a positive integer, got '%s'\n", option, value.c_str());
    std::exit(2);
  }
  return int(v);
}

/// A positive element count (up to 2^40), or exit 2 naming the option.
inline std::int64_t positive_count(const std::string& value, const char* option) {
  char* end = nullptr;
  const long long v = std::strtoll(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || v <= 0 || v > (1LL << 40)) {
    std::fprintf(stderr, "%s wants a positive element count, got '%s'\n", option, value.c_str());
    std::exit(2);
  }
  return std::int64_t(v);
}

}  // namespace kprim_perf
