#pragma once
// A kernel file as libclang parsed it, reduced to what the fast path's
// analysis needs (fission.h): a tree per function with each node's kind, its
// place in the assembled file, the declaration it names, types and
// operators. Built once per build; plain data, so the analysis is testable
// without libclang.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cv::emu::fission {

// The node kinds the analysis tells apart (libclang's CXCursorKind mapped).
enum class K {
  Other,
  // statements
  Compound, DeclStmt, If, For, While, Do, Switch, Return, Break, Continue, Goto, Label, Null, ExprStmt,
  Asm, Try,
  // declarations
  Var, Param, Function, Field, TypeDecl,
  // expressions
  DeclRef, MemberRef, Call, Subscript, Unary, Binary, CompoundAssign, Conditional, Paren, Cast,
  Literal, InitList, Lambda, SizeOf, Unexposed, This, Throw, New, Delete,
};

struct Node {
  K kind = K::Other;
  int raw_kind = 0;            // libclang's CXCursorKind
  unsigned begin = 0, end = 0; // byte offsets in the assembled file (main == true)
  bool main = false;           // the node lies in the assembled file (not a header)
  int line = 0;                // the student's line (presumed: the file's #line)
  std::string name;            // spelling: a declaration's or reference's name, a call's callee
  std::string usr;             // a declaration's unique name
  std::string ref;             // the referenced declaration's unique name (refs, calls)
  K ref_kind = K::Other;
  bool ref_system = false;     // the referenced declaration is in a system header
  std::string ref_file;        // the file it is declared in (its base name)
  unsigned ref_offset = 0;     // a reference's own spelling offset in the assembled file (0: none there)
  std::string type;            // canonical type spelling
  bool is_const = false, is_pod = false, is_reference = false, is_array = false, is_pointer = false;
  bool pointee_const = false;  // pointer / reference to const
  long long size = -1;         // sizeof the type (-1: unknown)
  bool type_in_body = false;   // the type's declaration lies inside the function being analysed
  bool is_static = false;      // a variable with static or thread storage (__shared__, static)
  bool is_extern = false;
  std::string op;              // Unary / Binary / CompoundAssign operator
  bool prefix = false;         // Unary: a prefix operator
  bool arrow = false;          // MemberRef through ->
  unsigned name_begin = 0;     // Var: where its name is spelt (assembled file), 0 if not there
  std::vector<std::string> param_ref;  // Call: per argument, "ref" / "const" / "" (by value)
  bool const_method = false;   // Call: the callee is a const member function
  std::vector<Node> kids;
};

struct Function {
  Node def;            // K::Function, kids: params then the body (K::Compound)
  std::string file;    // base name of its file
  bool system = false; // declared in a system header
  bool has_body = false;
  // Where it is in its own file (any file): the definition, the name, the
  // body's '{' (byte offsets), and what it is declared in.
  unsigned at_begin = 0, at_name = 0, at_body = 0, at_end = 0;
  std::vector<std::string> namespaces;  // outermost first; empty at global scope
  bool free_function = true;  // not a member, not a template, no default argument
};

struct Tree {
  std::map<std::string, Function> functions;  // by USR: the kernels and every function they reach
  std::vector<std::string> kernels;           // USRs of the entry points found, in request order
  std::string text;                           // the assembled file
  std::vector<std::string> errors;            // libclang's errors (then nothing is built)
};

// Through parentheses, implicit conversions and casts.
const Node& strip(const Node& e);
// A break or continue that leaves `n` (not one of a loop or switch inside it).
bool escapes(const Node& n, bool in_switch = false);
// `f` on `n` and every node below it (below a lambda only with `into_lambdas`).
void each(const Node& n, const std::function<void(const Node&)>& f, bool into_lambdas = true);
// `e` (through parentheses and conversions) names the declaration `usr`.
bool refers_to(const Node& e, const std::string& usr);
// A builtin integer type, as a node's canonical type spells it ("const " aside).
bool integer_type(std::string type);

// Parses `text` (the assembled kernel.cpp, whose headers are in `dir`) and
// builds the trees of `entries` (extern "C" names) and what they call.
// `why` says what kept libclang from it ("" when the tree is built).
Tree build_tree(const std::string& text, const std::string& dir, const std::vector<std::string>& entries,
                std::string* why);

}  // namespace cv::emu::fission
