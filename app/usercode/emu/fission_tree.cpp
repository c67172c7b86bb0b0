// build_tree(): libclang's AST of the kernels (fission_tree.h).
#include "usercode/emu/fission_tree.h"

#include <cctype>

#include "usercode/emu/clang_api.h"

namespace cv::emu::fission {

#if defined(CUDAVIZ_HAVE_LIBCLANG)
namespace {

// The loaded API (build_tree checks that it loaded before anything below runs).
const ClangApi& C() {
  static const ClangApi* const a = load_clang_api(nullptr);
  return *a;
}

std::string str(CXString s) {
  const char* c = C().clang_getCString(s);
  std::string r = c ? c : "";
  C().clang_disposeString(s);
  return r;
}

std::string base_name(const std::string& p) {
  const size_t s = p.rfind('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}

K kind_of(CXCursorKind k) {
  switch (k) {
    case CXCursor_CompoundStmt: return K::Compound;
    case CXCursor_DeclStmt: return K::DeclStmt;
    case CXCursor_IfStmt: return K::If;
    case CXCursor_ForStmt: return K::For;
    case CXCursor_WhileStmt: return K::While;
    case CXCursor_DoStmt: return K::Do;
    case CXCursor_SwitchStmt: return K::Switch;
    case CXCursor_ReturnStmt: return K::Return;
    case CXCursor_BreakStmt: return K::Break;
    case CXCursor_ContinueStmt: return K::Continue;
    case CXCursor_GotoStmt: case CXCursor_IndirectGotoStmt: return K::Goto;
    case CXCursor_LabelStmt: return K::Label;
    case CXCursor_NullStmt: return K::Null;
    case CXCursor_GCCAsmStmt: case CXCursor_MSAsmStmt: return K::Asm;
    case CXCursor_CXXTryStmt: return K::Try;
    case CXCursor_VarDecl: return K::Var;
    case CXCursor_ParmDecl: return K::Param;
    case CXCursor_FunctionDecl: case CXCursor_CXXMethod: case CXCursor_Constructor:
    case CXCursor_FunctionTemplate: case CXCursor_ConversionFunction: return K::Function;
    case CXCursor_FieldDecl: return K::Field;
    case CXCursor_StructDecl: case CXCursor_ClassDecl: case CXCursor_UnionDecl: case CXCursor_EnumDecl:
    case CXCursor_TypedefDecl: case CXCursor_TypeAliasDecl: return K::TypeDecl;
    case CXCursor_DeclRefExpr: return K::DeclRef;
    case CXCursor_MemberRefExpr: return K::MemberRef;
    case CXCursor_CallExpr: return K::Call;
    case CXCursor_ArraySubscriptExpr: return K::Subscript;
    case CXCursor_UnaryOperator: return K::Unary;
    case CXCursor_BinaryOperator: return K::Binary;
    case CXCursor_CompoundAssignOperator: return K::CompoundAssign;
    case CXCursor_ConditionalOperator: return K::Conditional;
    case CXCursor_ParenExpr: return K::Paren;
    case CXCursor_CStyleCastExpr: case CXCursor_CXXStaticCastExpr: case CXCursor_CXXFunctionalCastExpr:
    case CXCursor_CXXReinterpretCastExpr: case CXCursor_CXXConstCastExpr: return K::Cast;
    case CXCursor_IntegerLiteral: case CXCursor_FloatingLiteral: case CXCursor_StringLiteral:
    case CXCursor_CharacterLiteral: case CXCursor_CXXBoolLiteralExpr: case CXCursor_CXXNullPtrLiteralExpr:
      return K::Literal;
    case CXCursor_InitListExpr: return K::InitList;
    case CXCursor_LambdaExpr: return K::Lambda;
    case CXCursor_UnaryExpr: return K::SizeOf;
    case CXCursor_UnexposedExpr: return K::Unexposed;
    case CXCursor_CXXThisExpr: return K::This;
    case CXCursor_CXXThrowExpr: return K::Throw;
    case CXCursor_CXXNewExpr: return K::New;
    case CXCursor_CXXDeleteExpr: return K::Delete;
    default: return K::Other;
  }
}

bool is_expr(K k) { return k >= K::DeclRef; }

CXCursorKind api_kind(CXCursor c) { return C().clang_getCursorKind(c); }

struct Tok {
  unsigned begin, end;
  std::string text;
};

class Builder {
 public:
  Builder(CXTranslationUnit tu, CXFile main, Tree& t) : tu_(tu), main_(main), t_(t) {}

  Node node(CXCursor c, bool as_statement_here);
  void add_function(CXCursor def);

 private:
  void place(CXCursor c, Node& n);
  void describe_type(CXType t, Node& n);
  void describe_ref(CXCursor c, Node& n);
  std::vector<Tok> tokens(unsigned begin, unsigned end);
  void find_operator(Node& n);
  void order_statement_kids(Node& n);
  void place_in_file(CXCursor def, Function& f);

  CXTranslationUnit tu_;
  CXFile main_;
  Tree& t_;
  unsigned fn_begin_ = 0, fn_end_ = 0;  // the function being built (type_in_body)
};

void Builder::place(CXCursor c, Node& n) {
  const CXSourceRange r = C().clang_getCursorExtent(c);
  CXFile f1 = nullptr, f2 = nullptr;
  unsigned b = 0, e = 0;
  C().clang_getExpansionLocation(C().clang_getRangeStart(r), &f1, nullptr, nullptr, &b);
  C().clang_getExpansionLocation(C().clang_getRangeEnd(r), &f2, nullptr, nullptr, &e);
  n.main = f1 && f1 == main_ && f2 == main_;
  if (n.main) n.begin = b, n.end = e;
  CXString fn;
  unsigned line = 0;
  C().clang_getPresumedLocation(C().clang_getCursorLocation(c), &fn, &line, nullptr);
  C().clang_disposeString(fn);
  n.line = static_cast<int>(line);
}

void Builder::describe_type(CXType t, Node& n) {
  if (t.kind == CXType_Invalid) return;
  const CXType c = C().clang_getCanonicalType(t);
  n.type = str(C().clang_getTypeSpelling(c));
  n.is_const = C().clang_isConstQualifiedType(c);
  if (n.kind == K::Var) {  // (isPODType on a template's dependent type crashes libclang 14)
    n.size = C().clang_Type_getSizeOf(c);
    n.is_pod = n.size > 0 && C().clang_isPODType(c);
  }
  n.is_reference = c.kind == CXType_LValueReference || c.kind == CXType_RValueReference;
  n.is_pointer = c.kind == CXType_Pointer;
  n.is_array = c.kind == CXType_ConstantArray || c.kind == CXType_IncompleteArray ||
               c.kind == CXType_VariableArray;
  if (n.is_pointer || n.is_reference) n.pointee_const = C().clang_isConstQualifiedType(C().clang_getPointeeType(c));
  CXType base = c;
  while (base.kind == CXType_ConstantArray || base.kind == CXType_Pointer) {
    const CXType inner = base.kind == CXType_Pointer ? C().clang_getPointeeType(base) : base;
    if (base.kind != CXType_Pointer) break;
    base = inner;
  }
  const CXCursor d = C().clang_getTypeDeclaration(base);
  if (!C().clang_Cursor_isNull(d)) {
    CXFile f = nullptr;
    unsigned off = 0;
    C().clang_getFileLocation(C().clang_getCursorLocation(d), &f, nullptr, nullptr, &off);
    n.type_in_body = f == main_ && off >= fn_begin_ && off < fn_end_;
  }
}

void Builder::describe_ref(CXCursor c, Node& n) {
  const CXCursor d = C().clang_getCursorReferenced(c);
  if (C().clang_Cursor_isNull(d)) return;
  n.ref = str(C().clang_getCursorUSR(d));
  n.ref_kind = kind_of(C().clang_getCursorKind(d));
  const CXSourceLocation l = C().clang_getCursorLocation(d);
  n.ref_system = C().clang_Location_isInSystemHeader(l);
  CXFile f = nullptr;
  C().clang_getFileLocation(l, &f, nullptr, nullptr, nullptr);
  if (f) n.ref_file = base_name(str(C().clang_getFileName(f)));
  if (n.kind == K::DeclRef || n.kind == K::MemberRef) {
    // Where the name itself is spelt (inside a macro's argument: there; in a macro's body: not here).
    CXFile rf = nullptr;
    unsigned off = 0;
    C().clang_getFileLocation(C().clang_getCursorLocation(c), &rf, nullptr, nullptr, &off);
    const size_t after = off + n.name.size();
    const bool word_ends = after >= t_.text.size() || !(std::isalnum(static_cast<unsigned char>(t_.text[after])) ||
                                                         t_.text[after] == '_');
    if (rf == main_ && after <= t_.text.size() && t_.text.compare(off, n.name.size(), n.name) == 0 && word_ends)
      n.ref_offset = off;
  }
  if (n.kind == K::Call && api_kind(d) == CXCursor_CXXMethod) n.const_method = C().clang_CXXMethod_isConst(d);
  if (n.kind == K::Call && (n.ref_kind == K::Function)) {
    const CXType ft = C().clang_getCursorType(d);
    const int args = C().clang_getNumArgTypes(ft);
    for (int i = 0; i < args; ++i) {
      const CXType a = C().clang_getCanonicalType(C().clang_getArgType(ft, static_cast<unsigned>(i)));
      const bool ref = a.kind == CXType_LValueReference || a.kind == CXType_RValueReference;
      const bool cref = ref && C().clang_isConstQualifiedType(C().clang_getPointeeType(a));
      n.param_ref.push_back(cref ? "const" : ref ? "ref" : "");
    }
    const CXCursor def = C().clang_getCursorDefinition(d);
    if (!C().clang_Cursor_isNull(def) && !n.ref.empty() && !t_.functions.count(n.ref)) add_function(def);
  }
}

std::vector<Tok> Builder::tokens(unsigned begin, unsigned end) {
  std::vector<Tok> out;
  if (end <= begin) return out;
  const CXSourceRange r = C().clang_getRange(C().clang_getLocationForOffset(tu_, main_, begin),
                                              C().clang_getLocationForOffset(tu_, main_, end));
  CXToken* toks = nullptr;
  unsigned n = 0;
  C().clang_tokenize(tu_, r, &toks, &n);
  for (unsigned i = 0; i < n; ++i) {
    const CXSourceRange e = C().clang_getTokenExtent(tu_, toks[i]);
    unsigned b = 0, x = 0;
    C().clang_getFileLocation(C().clang_getRangeStart(e), nullptr, nullptr, nullptr, &b);
    C().clang_getFileLocation(C().clang_getRangeEnd(e), nullptr, nullptr, nullptr, &x);
    if (b >= begin && x <= end) out.push_back({b, x, str(C().clang_getTokenSpelling(tu_, toks[i]))});
  }
  C().clang_disposeTokens(tu_, toks, n);
  return out;
}

void Builder::find_operator(Node& n) {
  if (!n.main || n.kids.empty() || !n.kids[0].main) return;
  const std::vector<Tok> ts = tokens(n.begin, n.end);
  const Node& a = n.kids[0];
  if (n.kind == K::Unary) {
    if (!ts.empty() && ts.front().begin < a.begin) n.op = ts.front().text, n.prefix = true;
    else if (!ts.empty()) n.op = ts.back().text;
    return;
  }
  for (const Tok& t : ts)
    if (t.begin >= a.end) {
      if (n.kind == K::MemberRef) n.arrow = t.text == "->";
      else n.op = t.text;
      return;
    }
}

// If / For / While / Do / Switch: fixed slots (absent parts as Null), so the
// analysis knows which child is the condition. An if or while whose
// condition declares a variable, or an if with an init-statement, becomes Other.
// An overloaded assignment or increment (a struct's `a = b`, `v += w`) as the
// analysis sees the built-in ones: Binary "=", CompoundAssign, Unary "++".
void as_operator(Node& n) {
  static const char* const kAssign[] = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="};
  if (n.name.rfind("operator", 0) != 0) return;
  const std::string op = n.name.substr(8);
  const bool inc = op == "++" || op == "--";
  bool assign = false;
  for (const char* a : kAssign) assign = assign || op == a;
  if (!inc && !assign) return;
  std::vector<Node> operands;
  for (Node& k : n.kids)
    if (k.name != n.name) operands.push_back(std::move(k));  // not the operator's own name
  if (operands.empty() || (assign && operands.size() != 2)) return;
  n.kids = std::move(operands);
  n.op = op;
  n.kind = inc ? K::Unary : op == "=" ? K::Binary : K::CompoundAssign;
  if (inc) n.kids.resize(1);
}

Node as_statement(Node e) {
  if (!is_expr(e.kind)) return e;
  Node s;
  s.kind = K::ExprStmt;
  s.main = e.main, s.begin = e.begin, s.end = e.end, s.line = e.line;
  s.kids.push_back(std::move(e));
  return s;
}

void Builder::order_statement_kids(Node& n) {
  auto null_at = [&](unsigned at) {
    Node x;
    x.kind = K::Null;
    x.main = n.main;
    x.begin = x.end = at;
    return x;
  };
  std::vector<Tok> ts = n.main ? tokens(n.begin, n.end) : std::vector<Tok>{};
  // The parenthesised head: from the first '(' to its match.
  unsigned open = 0, close = 0, depth = 0;
  std::vector<unsigned> semis;
  for (const Tok& t : ts) {
    if (t.text == "(") {
      if (depth++ == 0 && !open) open = t.begin + 1;
    } else if (t.text == ")") {
      if (--depth == 0 && !close) close = t.begin;
    } else if (t.text == ";" && depth == 1 && !close) {
      semis.push_back(t.begin);
    }
    if (close) break;
  }
  std::vector<Node> head, rest;
  for (Node& k : n.kids) (k.begin < close ? head : rest).push_back(std::move(k));
  n.kids.clear();
  // Not told apart (a header's statement has no tokens here): an Other that
  // keeps its kids, so what it calls and reads is still seen.
  auto other = [&] {
    n.kind = K::Other;
    for (std::vector<Node>* part : {&head, &rest})
      for (Node& k : *part) n.kids.push_back(std::move(k));
  };
  if (n.kind == K::For) {
    if (semis.size() != 2 || rest.size() != 1) return other();
    Node init = null_at(open), cond = null_at(semis[0]), inc = null_at(semis[1]);
    for (Node& h : head) (h.begin < semis[0] ? init : h.begin < semis[1] ? cond : inc) = std::move(h);
    n.kids = {std::move(init), std::move(cond), std::move(inc), as_statement(std::move(rest[0]))};
  } else if (n.kind == K::If || n.kind == K::While || n.kind == K::Switch) {
    if (head.size() != 1 || head[0].kind == K::Var || head[0].kind == K::DeclStmt || rest.empty() ||
        rest.size() > (n.kind == K::If ? 2u : 1u))
      return other();
    n.kids.push_back(std::move(head[0]));
    for (Node& r : rest) n.kids.push_back(as_statement(std::move(r)));
  } else {  // Do: body, then the condition after `while (`
    if (n.kids.size() + head.size() + rest.size() == 0) return;
    std::vector<Node> all;
    for (Node& h : head) all.push_back(std::move(h));
    for (Node& r : rest) all.push_back(std::move(r));
    if (all.size() != 2) {
      n.kind = K::Other;
      n.kids = std::move(all);
      return;
    }
    all[0] = as_statement(std::move(all[0]));
    n.kids = std::move(all);
  }
}

struct VisitState {
  Builder* b;
  std::vector<CXCursor> kids;
};

Node Builder::node(CXCursor c, bool as_statement_here) {
  Node n;
  n.raw_kind = C().clang_getCursorKind(c);
  n.kind = kind_of(static_cast<CXCursorKind>(n.raw_kind));
  n.name = str(C().clang_getCursorSpelling(c));
  place(c, n);
  if (n.kind == K::Var || n.kind == K::Param || n.kind == K::Function) n.usr = str(C().clang_getCursorUSR(c));
  if (n.kind == K::Var || n.kind == K::Param) {
    describe_type(C().clang_getCursorType(c), n);
    const CX_StorageClass sc = C().clang_Cursor_getStorageClass(c);
    n.is_static = sc == CX_SC_Static || C().clang_getCursorTLSKind(c) != CXTLS_None;
    n.is_extern = sc == CX_SC_Extern;
    CXFile f = nullptr;
    unsigned off = 0;
    C().clang_getFileLocation(C().clang_getCursorLocation(c), &f, nullptr, nullptr, &off);
    if (f == main_ && t_.text.compare(off, n.name.size(), n.name) == 0) n.name_begin = off;
  } else if (is_expr(n.kind)) {
    describe_type(C().clang_getCursorType(c), n);
  }
  if (n.kind == K::DeclRef || n.kind == K::MemberRef || n.kind == K::Call) describe_ref(c, n);
  VisitState vs{this, {}};
  C().clang_visitChildren(
      c,
      [](CXCursor k, CXCursor, CXClientData d) {
        static_cast<VisitState*>(d)->kids.push_back(k);
        return CXChildVisit_Continue;
      },
      &vs);
  for (CXCursor k : vs.kids) {
    const K kk = kind_of(C().clang_getCursorKind(k));
    if (kk == K::Other && C().clang_isReference(C().clang_getCursorKind(k)))
      continue;  // type / namespace / template names: nothing to analyse
    if (n.kind == K::Function && kk != K::Param && kk != K::Compound) continue;
    n.kids.push_back(node(k, n.kind == K::Compound));
  }
  if (n.kind == K::Unary || n.kind == K::Binary || n.kind == K::CompoundAssign || n.kind == K::MemberRef)
    find_operator(n);
  if (n.kind == K::Call) as_operator(n);
  if (n.kind == K::If || n.kind == K::For || n.kind == K::While || n.kind == K::Do || n.kind == K::Switch)
    order_statement_kids(n);
  // `#pragma unroll` around a loop (an attributed statement, unexposed in
  // libclang): the loop itself, so the analysis sees a loop; the emitted text
  // starts at the loop, without the hint (which GCC does not read anyway).
  if (n.kind == K::Other && C().clang_isStatement(static_cast<CXCursorKind>(n.raw_kind)) && n.kids.size() == 1 &&
      (n.kids[0].kind == K::For || n.kids[0].kind == K::While || n.kids[0].kind == K::Do))
    return std::move(n.kids[0]);
  // An expression used as a statement (in a block; branches and loop bodies: order_statement_kids).
  return as_statement_here ? as_statement(std::move(n)) : n;
}

void Builder::add_function(CXCursor def) {
  Function f;
  const std::string usr = str(C().clang_getCursorUSR(def));
  t_.functions[usr];  // reserve: recursion stops here
  const CXSourceLocation l = C().clang_getCursorLocation(def);
  f.system = C().clang_Location_isInSystemHeader(l);
  CXFile file = nullptr;
  C().clang_getFileLocation(l, &file, nullptr, nullptr, nullptr);
  if (file) f.file = base_name(str(C().clang_getFileName(file)));
  if (f.system) {  // its body is the library's: not analysed
    t_.functions[usr] = std::move(f);
    return;
  }
  const unsigned saved_b = fn_begin_, saved_e = fn_end_;
  const CXSourceRange r = C().clang_getCursorExtent(def);
  C().clang_getFileLocation(C().clang_getRangeStart(r), nullptr, nullptr, nullptr, &fn_begin_);
  C().clang_getFileLocation(C().clang_getRangeEnd(r), nullptr, nullptr, nullptr, &fn_end_);
  f.def = node(def, false);
  fn_begin_ = saved_b, fn_end_ = saved_e;
  for (const Node& k : f.def.kids) f.has_body = f.has_body || k.kind == K::Compound;
  place_in_file(def, f);
  t_.functions[usr] = std::move(f);
}

// Offsets in the function's own file and its enclosing namespaces (fission_emit's clones).
void Builder::place_in_file(CXCursor def, Function& f) {
  const CXSourceRange r = C().clang_getCursorExtent(def);
  C().clang_getFileLocation(C().clang_getRangeStart(r), nullptr, nullptr, nullptr, &f.at_begin);
  C().clang_getFileLocation(C().clang_getRangeEnd(r), nullptr, nullptr, nullptr, &f.at_end);
  C().clang_getFileLocation(C().clang_getCursorLocation(def), nullptr, nullptr, nullptr, &f.at_name);
  f.free_function = C().clang_getCursorKind(def) == CXCursor_FunctionDecl;
  struct Body {
    unsigned at = 0;
    bool defaults = false;
  } b;
  C().clang_visitChildren(
      def,
      [](CXCursor k, CXCursor, CXClientData d) {
        Body& b = *static_cast<Body*>(d);
        if (C().clang_getCursorKind(k) == CXCursor_CompoundStmt)
          C().clang_getFileLocation(C().clang_getRangeStart(C().clang_getCursorExtent(k)), nullptr, nullptr,
                                    nullptr, &b.at);
        if (C().clang_getCursorKind(k) == CXCursor_ParmDecl)  // a default argument: an expression inside
          C().clang_visitChildren(
              k,
              [](CXCursor e, CXCursor, CXClientData d2) {
                const CXCursorKind ek = C().clang_getCursorKind(e);
                if (C().clang_isExpression(ek)) static_cast<Body*>(d2)->defaults = true;
                return CXChildVisit_Continue;
              },
              &b);
        return CXChildVisit_Continue;
      },
      &b);
  f.at_body = b.at;
  f.free_function = f.free_function && !b.defaults;
  for (CXCursor p = C().clang_getCursorSemanticParent(def); !C().clang_Cursor_isNull(p);
       p = C().clang_getCursorSemanticParent(p)) {
    const CXCursorKind k = C().clang_getCursorKind(p);
    if (C().clang_isTranslationUnit(k)) break;
    if (k == CXCursor_Namespace) f.namespaces.insert(f.namespaces.begin(), str(C().clang_getCursorSpelling(p)));
    else if (k != CXCursor_LinkageSpec && k != CXCursor_UnexposedDecl) f.free_function = false;
  }
}

}  // namespace

Tree build_tree(const std::string& text, const std::string& dir, const std::vector<std::string>& entries,
                std::string* why) {
  Tree t;
  t.text = text;
  if (!load_clang_api(why)) return t;
  const std::string path = dir + "/cudaviz_emu_fission_input.cpp";
  CXUnsavedFile unsaved{path.c_str(), text.c_str(), static_cast<unsigned long>(text.size())};
  const std::string inc = "-I" + dir;
  const std::string cuda_path = "--cuda-path=" + dir;  // else the driver probes /usr/local/cuda
  const char* args[] = {"-x", "c++", "-std=c++17", inc.c_str(), "-DCV_EMU_FISSION_PARSE=1", "-w", cuda_path.c_str()};
  CXIndex index = C().clang_createIndex(0, 0);
  CXTranslationUnit tu = nullptr;
  const CXErrorCode e = C().clang_parseTranslationUnit2(index, path.c_str(), args, 7, &unsaved, 1,
                                                         CXTranslationUnit_KeepGoing, &tu);
  if (e != CXError_Success || !tu) {
    if (why) *why = "libclang could not parse the kernel (error " + std::to_string(static_cast<int>(e)) + ")";
    C().clang_disposeIndex(index);
    return t;
  }
  for (unsigned i = 0; i < C().clang_getNumDiagnostics(tu); ++i) {
    CXDiagnostic d = C().clang_getDiagnostic(tu, i);
    if (C().clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
      unsigned line = 0;
      CXString fn;
      C().clang_getPresumedLocation(C().clang_getDiagnosticLocation(d), &fn, &line, nullptr);
      t.errors.push_back(str(fn) + ":" + std::to_string(line) + ": " + str(C().clang_getDiagnosticSpelling(d)));
    }
    C().clang_disposeDiagnostic(d);
  }
  if (t.errors.empty()) {
    CXFile main = C().clang_getFile(tu, path.c_str());
    Builder b(tu, main, t);
    struct Find {
      const std::vector<std::string>* names;
      std::vector<CXCursor> found;
    } find{&entries, {}};
    C().clang_visitChildren(
        C().clang_getTranslationUnitCursor(tu),
        [](CXCursor c, CXCursor, CXClientData d) {
          auto& f = *static_cast<Find*>(d);
          const CXCursorKind k = C().clang_getCursorKind(c);
          if (k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl) return CXChildVisit_Recurse;  // extern "C" (libclang 14: unexposed)
          if (C().clang_getCursorKind(c) == CXCursor_FunctionDecl && C().clang_isCursorDefinition(c))
            for (const std::string& n : *f.names)
              if (str(C().clang_getCursorSpelling(c)) == n) f.found.push_back(c);
          return CXChildVisit_Continue;
        },
        &find);
    for (CXCursor c : find.found) {
      const std::string usr = str(C().clang_getCursorUSR(c));
      if (!t.functions.count(usr)) b.add_function(c);
      t.kernels.push_back(usr);
    }
  } else if (why) {
    *why = "libclang did not accept the kernel: " + t.errors.front();
  }
  C().clang_disposeTranslationUnit(tu);
  C().clang_disposeIndex(index);
  return t;
}
#else
Tree build_tree(const std::string& text, const std::string&, const std::vector<std::string>&, std::string* why) {
  Tree t;
  t.text = text;
  load_clang_api(why);
  return t;
}
#endif

const Node& strip(const Node& e) {
  const Node* p = &e;
  while ((p->kind == K::Paren || p->kind == K::Unexposed || p->kind == K::Cast) && !p->kids.empty())
    p = &p->kids.back();
  return *p;
}

void each(const Node& n, const std::function<void(const Node&)>& f, bool into_lambdas) {
  f(n);
  if (n.kind == K::Lambda && !into_lambdas) return;
  for (const Node& k : n.kids) each(k, f, into_lambdas);
}

bool refers_to(const Node& e, const std::string& usr) {
  const Node& s = strip(e);
  return s.kind == K::DeclRef && s.ref == usr;
}

bool integer_type(std::string t) {
  if (t.rfind("const ", 0) == 0) t = t.substr(6);
  for (const char* k : {"int", "unsigned int", "long", "unsigned long", "long long", "unsigned long long", "short",
                        "unsigned short"})
    if (t == k) return true;
  return false;
}

bool escapes(const Node& n, bool in_switch) {
  switch (n.kind) {
    case K::Break: return !in_switch;
    case K::Continue: return true;
    case K::For: case K::While: case K::Do: case K::Lambda: return false;
    default:
      for (const Node& k : n.kids)
        if (escapes(k, in_switch || n.kind == K::Switch)) return true;
      return false;
  }
}

}  // namespace cv::emu::fission
