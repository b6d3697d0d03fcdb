// The einops command line: subcommands, their options, and the exit status of each command.
// docs/cli.md is its manual.
//
// Exit status: 0 success; 1 the operation refused the pattern or the data (EinopsError, printed
// with einops' message); 2 a usage error or a file that cannot be read or written (one line);
// 3 an internal error (a bug: please report it).
#include "command_line.hpp"

#include <CLI/CLI.hpp>

#include <new>

#include "batch.hpp"
#include "commands.hpp"
#include "einops/error.hpp"
#include "einops/reduction.hpp"
#include "tool_errors.hpp"

namespace einops::tool {
namespace {

constexpr int kOperationFailed = 1;
constexpr int kBadInput = 2;
constexpr int kInternalError = 3;

/// "min, max, ... or all", from the table of reductions.
std::string reduction_choices() { return reduction_names("", " or "); }

void add_transform(CLI::App& app, const std::string& name, const std::string& description, TransformCommand& command) {
  CLI::App* sub = app.add_subcommand(name, description);
  sub->add_option("pattern", command.pattern, "the einops pattern, e.g. 'b h w c -> b c h w'")->required();
  sub->add_option("inputs", command.words,
                  "input files (.npy, or .png read as h w c uint8; several form a list, stacked on a new "
                  "first axis) and axis lengths as name=len")
      ->required();
  sub->add_option("-o,--output", command.output, "write the result here (.npy, or .png for pictures)");
  if (name == "reduce") sub->add_option("-r,--reduction", command.reduction, "the reduction: " + reduction_choices());
  sub->add_option("--dtype", command.dtype,
                  "dtype of the written result: 'result' (einops' result dtype, the default), 'input', or a name");
  if (name != "reduce") {
    sub->add_option("--scale", command.scale,
                    "convert through out = in * scale + offset: one number, or one per position of --axis (a,b,c)");
    sub->add_option("--offset", command.offset, "the map's offset: one number, or one per position of --axis");
    sub->add_option("--axis", command.axis, "the output axis along which --scale and --offset vary");
    sub->add_flag("--offset-first", command.offset_first, "out = (in + offset) * scale instead");
  }
  sub->add_flag("--stack", command.stack,
                "treat the inputs as einops' list input even when there is one: stacked on a new first axis");
  sub->add_flag("-v,--verbose", command.verbose, "say what was written");
  sub->callback([&command, name] { command.operation = name; });
}

}  // namespace

int run_command_line(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"einops patterns applied to .npy arrays and PNG pictures, and explained.", "einops"};
  app.require_subcommand(1, 1);

  TransformCommand rearrange_command, reduce_command, repeat_command;
  add_transform(app, "rearrange", "reorder, split and merge axes", rearrange_command);
  add_transform(app, "reduce", "reduce axes (" + reduction_names("", ", ") + ")", reduce_command);
  add_transform(app, "repeat", "add, repeat and tile axes", repeat_command);

  ExplainCommand explain_command;
  CLI::App* explain = app.add_subcommand("explain", "show how a pattern is read for one input shape, step by step");
  explain->add_option("pattern", explain_command.pattern, "the einops pattern")->required();
  explain->add_option("inputs", explain_command.words, "input files (their shape and dtype are used) and name=len");
  explain->add_option("-s,--shape", explain_command.shapes, "the input shape, e.g. 2,3,4 (einsum: once per operand)")
      ->allow_extra_args(false);
  explain->add_option("-r,--reduction", explain_command.reduction, "explain a reduce: " + reduction_choices());
  explain->add_option("--op", explain_command.operation,
                      "rearrange, reduce, repeat or einsum (default: einsum for a "
                      "pattern with a comma, reduce with --reduction, else rearrange)");
  explain->add_option("--dtype", explain_command.dtype, "element type for the cost in bytes (default float32)");

  CheckCommand check_command;
  CLI::App* check = app.add_subcommand("check",
                                       "assert an array's shape against a pattern (exit 1 with the reason "
                                       "when it does not fit); prints the named lengths as name=len");
  check->add_option("pattern", check_command.pattern, "one side of a pattern, e.g. 'b t (h p) 3'")->required();
  check->add_option("inputs", check_command.words, "the input file (only its header is read) and name=len")->required();

  PackCommand pack_command;
  CLI::App* pack = app.add_subcommand("pack", "pack several arrays into one along '*' (prints the packed shapes)");
  pack->add_option("pattern", pack_command.pattern, "the pack pattern, e.g. 'b h w *'")->required();
  pack->add_option("inputs", pack_command.inputs, "input files")->required();
  pack->add_option("-o,--output", pack_command.output, "write the packed array here");

  UnpackCommand unpack_command;
  CLI::App* unpack = app.add_subcommand("unpack", "split a packed array back into its parts");
  unpack->add_option("pattern", unpack_command.pattern, "the pack pattern, e.g. 'b h w *'")->required();
  unpack->add_option("input", unpack_command.input, "the packed array")->required();
  unpack
      ->add_option("--shapes", unpack_command.shapes,
                   "the packed shapes as pack printed them, e.g. '[(2, 3), (), (4,)]'")
      ->required();
  unpack->add_option("-o,--output", unpack_command.outputs, "one output file per packed shape");

  EinsumCommand einsum_command;
  CLI::App* einsum = app.add_subcommand("einsum", "einops.einsum over one or more arrays of one dtype");
  einsum->add_option("pattern", einsum_command.pattern, "e.g. 'b i k, b k j -> b i j'")->required();
  einsum->add_option("inputs", einsum_command.inputs, "the operands, in pattern order")->required();
  einsum->add_option("-o,--output", einsum_command.output, "write the result here");

  SampleCommand sample_command;
  CLI::App* sample = app.add_subcommand("sample", "write a batch of sample pictures (digits) for trying patterns");
  sample->add_option("-o,--output", sample_command.output, "the .npy (or .png) file to write")->required();
  sample->add_option("--count", sample_command.count, "pictures in the batch (default 16)");
  sample->add_option("--size", sample_command.size, "height and width of each picture (default 32)");

  std::vector<std::string> show_files;
  CLI::App* show = app.add_subcommand("show", "print arrays (.npy or .png) the way numpy prints them");
  show->add_option("files", show_files, "files to print")->required();

  std::string batch_file;
  CLI::App* batch = app.add_subcommand("batch",
                                       "run many commands in one process (for scripts and tests): one "
                                       "command a line, arguments separated by tabs, \\t \\n \\\\ "
                                       "escaped; prints one line per command: status, stdout, stderr");
  batch->add_option("commands", batch_file, "the file of commands, or - for standard input")->required();

  std::vector<char*> argv;
  std::vector<std::string> words = args;
  for (std::string& word : words) argv.push_back(word.data());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e, out, err);
    return code == 0 ? 0 : kBadInput;
  }

  try {
    if (app.got_subcommand("rearrange")) run_transform(rearrange_command, out);
    else if (app.got_subcommand("reduce")) run_transform(reduce_command, out);
    else if (app.got_subcommand("repeat")) run_transform(repeat_command, out);
    else if (check->parsed()) run_check(check_command, out);
    else if (pack->parsed()) run_pack(pack_command, out);
    else if (unpack->parsed()) run_unpack(unpack_command, out);
    else if (einsum->parsed()) run_einsum(einsum_command, out);
    else if (explain->parsed()) run_explain(explain_command, out);
    else if (sample->parsed()) run_sample(sample_command, out);
    else if (show->parsed()) run_show(show_files, out);
    else if (batch->parsed()) return run_batch(batch_file, out);
  } catch (const einops::EinopsError& e) {
    err << "einops: " << e.what() << "\n";
    return kOperationFailed;
  } catch (const FileError& e) {
    err << "einops: " << e.what() << "\n";
    return kBadInput;
  } catch (const UsageError& e) {
    err << "einops: " << e.what() << "\n";
    return kBadInput;
  } catch (const std::bad_alloc&) {
    err << "einops: not enough memory for this operation\n";
    return kBadInput;
  } catch (const std::exception& e) {
    err << "einops: internal error: " << e.what() << "\n";
    return kInternalError;
  }
  out.flush();
  return out.good() ? 0 : kBadInput;
}

}  // namespace einops::tool
