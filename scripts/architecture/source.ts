// What the architecture check and figures read of each source file: its imports, the SQL in its string and template
// literals, and where it branches on the database dialect. Read with TypeScript's own parser (TypeScript 7's API,
// which runs the native compiler beside this process and hands back each file's syntax tree): `import type` and
// `with { type: 'text' }` imports are seen as written, and a word in a comment or in JSX text is never taken for code.
import { dirname, join, relative, resolve } from 'node:path'
import { API } from 'typescript/unstable/async'
import { SyntaxKind, type Node, type SourceFile } from 'typescript/unstable/ast'

export type Import = {
  /** As written: `../../modules/users/store`. */
  specifier: string
  /** The file it names, relative to the root (`src/modules/users/store.ts`); null for a package or a built-in. */
  target: string | null
  line: number
  /** `import type`, `export type … from`, every name `{ type X }`, or `import('…').T` in a type: gone at run time. */
  typeOnly: boolean
  /** `import('…')` called at run time. */
  dynamic: boolean
}

/** A string or template literal, its `${…}` parts shown as `${…}`. */
export type Literal = { line: number; text: string }

export type DialectUse = {
  line: number
  /** `test`: a comparison or switch on the dialect; `helper`: a call of a db/dialect.ts function; `pass`: the dialect handed on. */
  kind: 'test' | 'helper' | 'pass'
  code: string
}

/** A function's body, for the tracer of a listing create (./trace.ts): where to note that it ran. */
export type FunctionBody = {
  name: string
  line: number
  /** Offsets in the file's text: the body's first character and its end. */
  start: number
  end: number
  /** An arrow function's expression body (`(x) => x + 1`) rather than a block. */
  expression: boolean
}

export type SourceFacts = {
  /** Relative to the root, with forward slashes. */
  file: string
  lines: number
  imports: Import[]
  literals: Literal[]
  dialect: DialectUse[]
  /** Only when read `withFunctions`. */
  functions?: FunctionBody[]
}

export type ReadOptions = {
  root: string
  /** Folders (relative to the root) whose .ts and .tsx files are read: src/, db/ and islands/ unless said. */
  dirs?: string[]
  /** Files as they would be written (relative path → text), on top of the disk and read too: how a test plants a violation. */
  overlay?: Record<string, string>
  /** Also list every function body (the tracer needs them; the rules do not). */
  withFunctions?: boolean
}

export const APP_DIRS = ['src', 'db', 'islands']

/** The dialect helpers (db/dialect.ts): calling one is branching on the dialect by another name. */
export const DIALECT_MODULE = 'db/dialect.ts'

/** Reads every .ts/.tsx file of the folders and answers what each holds, by relative path. */
export async function readSources(options: ReadOptions): Promise<Map<string, SourceFacts>> {
  const root = resolve(options.root)
  const overlay = new Map(Object.entries(options.overlay ?? {}).map(([f, text]) => [join(root, f), text]))
  // The project is described to the compiler in memory: only our files, no libraries, imports not followed (this
  // resolves them itself, below), so it parses a few hundred files and checks nothing.
  const config = join(root, '.architecture.tsconfig.json')
  const configText = JSON.stringify({
    compilerOptions: { noResolve: true, noLib: true, types: [], jsx: 'react-jsx', module: 'esnext', moduleResolution: 'bundler', allowImportingTsExtensions: true, noEmit: true },
    include: options.dirs ?? APP_DIRS,
    // Planted files are not on disk for the folders' globs to find: they are named.
    ...(overlay.size > 0 ? { files: Object.keys(options.overlay!) } : {}),
  })
  const api = new API({
    cwd: root,
    fs: {
      readFile: (f) => (f === config ? configText : overlay.get(f)),
      fileExists: (f) => (f === config || overlay.has(f) ? true : undefined),
    },
  })
  try {
    const snapshot = await api.updateSnapshot({ openProjects: [config] })
    const project = snapshot.getProjects()[0]
    if (!project) throw new Error('TypeScript opened no project for the architecture check')
    const names = (await project.program.getSourceFileNames()).filter((f) => /\.tsx?$/.test(f) && !f.includes('/node_modules/') && !f.endsWith('.d.ts'))
    const trees = await Promise.all(names.map((f) => project.program.getSourceFile(f)))
    const resolver = makeResolver(root, overlay)
    const facts = new Map<string, SourceFacts>()
    for (const tree of trees) {
      if (!tree) continue
      const file = relative(root, tree.fileName).split('\\').join('/')
      facts.set(file, factsOf(tree, file, (spec) => resolver(spec, tree.fileName), options.withFunctions ?? false))
    }
    return facts
  } finally {
    await api.close()
  }
}

/** Where an import leads, as Bun resolves it at run time (tsconfig paths, extensions, index files); planted files first. */
function makeResolver(root: string, overlay: Map<string, string>) {
  return (specifier: string, from: string): string | null => {
    if (specifier.startsWith('.')) {
      const base = resolve(dirname(from), specifier)
      for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`])
        if (overlay.has(candidate)) return relative(root, candidate).split('\\').join('/')
    }
    let found: string
    try {
      found = Bun.resolveSync(specifier, dirname(from))
    } catch {
      return null // the type check reports it
    }
    if (!found.startsWith(root + '/') || found.includes('/node_modules/')) return null
    return relative(root, found).split('\\').join('/')
  }
}

const text = (n: Node): string => (n as unknown as { text: string }).text

function factsOf(tree: SourceFile, file: string, resolveImport: (specifier: string) => string | null, withFunctions: boolean): SourceFacts {
  const imports: Import[] = []
  const functions: FunctionBody[] = []
  const literals: Literal[] = []
  const dialect: DialectUse[] = []
  const source = tree.text
  const lineOf = (n: Node) => tree.getLineAndCharacterOfPosition(n.getStart(tree)).line + 1
  const codeOf = (n: Node) => source.slice(n.getStart(tree), n.end).replace(/\s+/g, ' ').slice(0, 160)
  /** Local names bound to the dialect helpers by this file's imports. */
  const helpers = new Set<string>()
  /** `.dialect` reads already counted as part of a test or a helper call. */
  const counted = new Set<Node>()

  const addImport = (specNode: Node, typeOnly: boolean, dynamic: boolean) => {
    const specifier = text(specNode)
    imports.push({ specifier, target: resolveImport(specifier), line: lineOf(specNode), typeOnly, dynamic })
  }

  const isDialect = (n: Node | undefined): boolean =>
    !!n &&
    ((n.kind === SyntaxKind.Identifier && text(n) === 'dialect') ||
      (n.kind === SyntaxKind.PropertyAccessExpression && text((n as any).name) === 'dialect') ||
      ((n.kind === SyntaxKind.StringLiteral || n.kind === SyntaxKind.NoSubstitutionTemplateLiteral) && (text(n) === 'postgres' || text(n) === 'sqlite')))
  const markDialectReads = (n: Node) => {
    if (n.kind === SyntaxKind.PropertyAccessExpression && text((n as any).name) === 'dialect') counted.add(n)
    n.forEachChild((c) => void markDialectReads(c))
  }

  const visit = (n: Node): void => {
    if (withFunctions && FUNCTION_KINDS.has(n.kind) && (n as any).body) {
      const body = (n as any).body as Node
      functions.push({ name: functionName(n), line: lineOf(n), start: body.getStart(tree), end: body.end, expression: body.kind !== SyntaxKind.Block })
    }
    switch (n.kind) {
      case SyntaxKind.ImportDeclaration: {
        const d = n as any
        const clause = d.importClause
        const named = clause?.namedBindings?.kind === SyntaxKind.NamedImports ? (clause.namedBindings.elements as any[]) : null
        const typeOnly = !!clause && (clause.phaseModifier === SyntaxKind.TypeKeyword || (!clause.name && !!named && named.length > 0 && named.every((e) => e.isTypeOnly)))
        addImport(d.moduleSpecifier, typeOnly, false)
        if (named && resolveImport(text(d.moduleSpecifier)) === DIALECT_MODULE) for (const e of named) helpers.add(text(e.name))
        return // its strings are not SQL
      }
      case SyntaxKind.ExportDeclaration: {
        const d = n as any
        if (!d.moduleSpecifier) break
        const named = d.exportClause?.kind === SyntaxKind.NamedExports ? (d.exportClause.elements as any[]) : null
        addImport(d.moduleSpecifier, d.isTypeOnly || (!!named && named.length > 0 && named.every((e) => e.isTypeOnly)), false)
        return
      }
      case SyntaxKind.ImportType: {
        const arg = (n as any).argument
        if (arg?.kind === SyntaxKind.LiteralType && arg.literal?.kind === SyntaxKind.StringLiteral) addImport(arg.literal, true, false)
        break
      }
      case SyntaxKind.CallExpression: {
        const call = n as any
        const [first] = call.arguments as Node[]
        if (call.expression.kind === SyntaxKind.ImportKeyword) {
          if (first && (first.kind === SyntaxKind.StringLiteral || first.kind === SyntaxKind.NoSubstitutionTemplateLiteral)) {
            addImport(first, false, true)
            return
          }
        } else if (call.expression.kind === SyntaxKind.Identifier && helpers.has(text(call.expression))) {
          dialect.push({ line: lineOf(n), kind: 'helper', code: codeOf(n) })
          markDialectReads(n)
        }
        break
      }
      case SyntaxKind.BinaryExpression: {
        const b = n as any
        const op = b.operatorToken.kind
        const comparison = op === SyntaxKind.EqualsEqualsEqualsToken || op === SyntaxKind.ExclamationEqualsEqualsToken || op === SyntaxKind.EqualsEqualsToken || op === SyntaxKind.ExclamationEqualsToken
        if (comparison && (isDialect(b.left) || isDialect(b.right))) {
          dialect.push({ line: lineOf(n), kind: 'test', code: codeOf(n) })
          markDialectReads(n)
        }
        break
      }
      case SyntaxKind.SwitchStatement: {
        const s = n as any
        if (isDialect(s.expression)) {
          dialect.push({ line: lineOf(n), kind: 'test', code: `switch (${codeOf(s.expression)})` })
          markDialectReads(s.expression)
        }
        break
      }
      case SyntaxKind.PropertyAccessExpression:
        // Children first: a read inside a test or a helper call was marked when that was visited (parents come first).
        if (text((n as any).name) === 'dialect' && !counted.has(n)) dialect.push({ line: lineOf(n), kind: 'pass', code: codeOf(n.parent ?? n) })
        break
      case SyntaxKind.StringLiteral:
      case SyntaxKind.NoSubstitutionTemplateLiteral:
        literals.push({ line: lineOf(n), text: text(n) })
        break
      case SyntaxKind.TemplateExpression: {
        const t = n as any
        literals.push({ line: lineOf(n), text: text(t.head) + (t.templateSpans as any[]).map((s) => '${…}' + text(s.literal)).join('') })
        for (const span of t.templateSpans as any[]) visit(span.expression)
        return
      }
    }
    n.forEachChild((c) => void visit(c))
  }
  visit(tree)
  return { file, lines: countLines(source), imports, literals, dialect, ...(withFunctions ? { functions } : {}) }
}

const FUNCTION_KINDS = new Set([
  SyntaxKind.FunctionDeclaration,
  SyntaxKind.FunctionExpression,
  SyntaxKind.ArrowFunction,
  SyntaxKind.MethodDeclaration,
  SyntaxKind.Constructor,
  SyntaxKind.GetAccessor,
  SyntaxKind.SetAccessor,
])

/** `createListing`, `ChangeFeed.sync`, `constructor`; an arrow function by the variable or property it is given to. */
function functionName(n: Node): string {
  const own = (n as any).name
  let name: string | undefined = own && (own.kind === SyntaxKind.Identifier || own.kind === SyntaxKind.PrivateIdentifier) ? text(own) : undefined
  if (n.kind === SyntaxKind.Constructor) name = 'constructor'
  const parent = n.parent as any
  if (!name && parent && (parent.kind === SyntaxKind.VariableDeclaration || parent.kind === SyntaxKind.PropertyAssignment || parent.kind === SyntaxKind.PropertyDeclaration) && parent.name?.kind === SyntaxKind.Identifier)
    name = text(parent.name)
  let owner: any = n.parent
  while (owner && owner.kind !== SyntaxKind.ClassDeclaration && owner.kind !== SyntaxKind.SourceFile) owner = owner.parent
  const cls = owner?.kind === SyntaxKind.ClassDeclaration && owner.name ? `${text(owner.name)}.` : ''
  return name ? cls + name : `${cls}(anonymous)`
}

/** Lines as `wc -l` counts them, plus a last line without its newline. */
export const countLines = (s: string) => (s.length === 0 ? 0 : s.split('\n').length - (s.endsWith('\n') ? 1 : 0))
