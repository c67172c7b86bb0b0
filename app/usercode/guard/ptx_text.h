#pragma once
// PTX as text, split into the pieces the guard rewrites around: statements
// (to their ';', across lines: NVVM spreads a call over several), labels,
// block braces, newline-ended directives (.loc, .file, .version ...), the
// debug sections (kept whole) and the space and comments between them.
// Concatenating the pieces' text gives the input back unchanged.
#include <optional>
#include <string>
#include <vector>

namespace cv::usercode::guard {

enum class PieceKind {
  Space,      // whitespace and comments
  Directive,  // ".loc 1 12 3", ".file 1 \"kernel.cu\"", ".version 9.0": to the end of the line
  Stmt,       // an instruction or declaration, with its ';'
  Header,     // ".visible .entry name(...)" before its body's '{'
  Label,      // "$L__BB0_5:"
  Open,       // '{' of a body or block
  Close,      // '}'
  Raw,        // ".section ... { ... }": kept as is
};

struct Piece {
  PieceKind kind;
  std::string text;
  int source_line = 0;  // 1-based line of the PTX where the piece starts
};

std::vector<Piece> split_ptx(const std::string& ptx);

// The text without comments, whitespace runs collapsed to one space, trimmed.
std::string squeeze(const std::string& text);

// One instruction statement.
struct Instruction {
  std::string guard;             // "%p1" for "@%p1", "" when unpredicated
  bool guard_negated = false;    // "@!%p1"
  std::string opcode;            // "ld.global.v4.f32"
  std::vector<std::string> parts;  // opcode split at '.': {"ld", "global", "v4", "f32"}
  std::vector<std::string> operands;  // top-level, trimmed: "{%f1, %f2}", "[%rd1+8]"
  std::string body;              // without the guard and the ';' (to re-emit)
};
// False for statements that are not instructions (declarations, directives).
bool parse_instruction(const std::string& stmt, Instruction& out);

// A variable declared in the module or a function body.
struct VarDecl {
  std::string space;    // "global", "const", "shared", "local", "reg", "param"
  std::vector<std::string> names;  // without array brackets; "%r<37>" kept as "%r<37>"
  long long bytes = -1;  // size of one name (-1: unsized, e.g. extern shared [])
  unsigned align = 0;
  unsigned elem_bytes = 0;  // of the declared type
  bool is_extern = false;
};
std::optional<VarDecl> parse_decl(const std::string& stmt);

// Bytes of a PTX scalar type ("f32" -> 4, "b128" -> 16, "f16x2" -> 4); 0 if not a type.
unsigned type_bytes(const std::string& type);

// ld, ldu, st, atom, red: the opcode roots that access memory.
bool is_memory_root(const std::string& root);
// A memory instruction's state space ("generic" when none is named; "" for
// param / const and other blocks' shared memory, which cannot fault here) and
// its width in bytes (0 when unknown).
unsigned access_shape(const Instruction& ins, std::string& space);

}  // namespace cv::usercode::guard
