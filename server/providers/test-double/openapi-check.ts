// A provider's own published OpenAPI document, held up to every request its double receives: the operation's
// requestBody schema (with its $refs) validated by ajv, and its documented path and query parameters. The documents live beside the repository, in
// ../shared/providers (never copied in); where the folder is absent the check says so once and checks nothing,
// and the double's own schemas (written from the provider's pages) still apply.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { parse } from "yaml";

type Json = Record<string, unknown>;
export type OpenApiCheck = {
  /** Where the document was read from; null when it is absent (then nothing is checked). */
  source: string | null;
  /** Why the body does not match the operation's documented schema; null when it does, or the path is undocumented. */
  check: (method: string, path: string, body: unknown) => string | null;
  /** Why a path or query parameter does not match its documented schema; null when all do (undocumented ones pass). */
  checkParameters: (method: string, path: string, query: URLSearchParams) => string | null;
};

type Parameter = { name: string; in: "path" | "query"; validate: ValidateFunction };

/** A parameter arrives as text: read as the type its schema documents before it is validated. */
function typed(text: string, schema: Json): unknown {
  if ((schema.type === "integer" || schema.type === "number") && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (schema.type === "boolean" && (text === "true" || text === "false")) return text === "true";
  return text;
}

/** ../shared/providers beside the checkout, found from this file upwards (a worktree sits one level deeper). */
export function providerDocument(file: string): string | null {
  for (let dir = resolve(import.meta.dirname, "../../.."), i = 0; i < 4; i++, dir = dirname(dir)) {
    const candidate = join(dir, "..", "shared", "providers", file);
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

/** Replaces each local `$ref` by what it names, so ajv sees one self-contained schema. */
function inline(node: unknown, doc: Json, depth = 0): unknown {
  if (depth > 20 || typeof node !== "object" || node === null) return node;
  if (Array.isArray(node)) return node.map((n) => inline(n, doc, depth + 1));
  const ref = (node as Json).$ref;
  if (typeof ref === "string" && ref.startsWith("#/")) {
    const target = ref
      .slice(2)
      .split("/")
      .reduce<unknown>((at, key) => (at as Json | undefined)?.[key], doc);
    return inline(target, doc, depth + 1);
  }
  return Object.fromEntries(Object.entries(node as Json).map(([k, v]) => [k, inline(v, doc, depth + 1)]));
}

/** `/payments/{id}/refunds` → a pattern for the request path under the document's server base path. */
/** The path an OpenAPI template names, each `{parameter}` one path segment, captured in order (a double's route). */
export const templatePattern = (template: string): RegExp => pathPattern("", template);

function pathPattern(basePath: string, template: string): RegExp {
  const escaped = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}/g, "([^/]+)");
  return new RegExp(`^${basePath.replace(/\/+$/, "")}${escaped}$`);
}

/** The names of a template's path parameters, in order. */
function pathNames(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] ?? "");
}

export function openApiCheck(file: string): OpenApiCheck {
  const source = providerDocument(file);
  if (!source) return { source: null, check: () => null, checkParameters: () => null };
  const doc = parse(readFileSync(source, "utf8")) as Json;
  const servers = (doc.servers as { url?: string }[] | undefined) ?? [];
  const basePath = servers[0]?.url ? new URL(servers[0].url).pathname : "";
  // OpenAPI 3.0's own words (example, nullable, x-…) are not validation keywords: ajv is told to let them be.
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const operations: { method: string; pattern: RegExp; names: string[]; validate: ValidateFunction | null; parameters: Parameter[] }[] = [];
  for (const [template, item] of Object.entries((doc.paths as Json | undefined) ?? {})) {
    for (const [method, op] of Object.entries((item as Json | null) ?? {})) {
      const schema = (((op as Json).requestBody as Json | undefined)?.content as Json | undefined)?.["application/json"] as
        Json | undefined;
      const inlined = schema?.schema ? (inline(schema.schema, doc) as Json) : null;
      const parameters = (((op as Json).parameters as unknown[] | undefined) ?? []).flatMap((p) => {
        const param = inline(p, doc) as Json;
        const schema = param.schema as Json | undefined;
        if ((param.in !== "path" && param.in !== "query") || typeof param.name !== "string" || !schema) return [];
        return [{ name: param.name, in: param.in, validate: ajv.compile(schema) } as Parameter];
      });
      operations.push({
        method: method.toUpperCase(),
        pattern: pathPattern(basePath, template),
        names: pathNames(template),
        validate: inlined ? ajv.compile(inlined) : null,
        parameters,
      });
    }
  }
  return {
    source,
    check(method, path, body) {
      const op = operations.find((o) => o.method === method && o.pattern.test(path));
      if (!op?.validate || op.validate(body)) return null;
      return (op.validate.errors ?? []).map((e) => `${e.instancePath || "body"} ${e.message ?? "is invalid"}`).join("; ");
    },
    checkParameters(method, path, query) {
      const op = operations.find((o) => o.method === method && o.pattern.test(path));
      if (!op) return null;
      const values = op.pattern.exec(path)?.slice(1) ?? [];
      const wrong = op.parameters.flatMap((p) => {
        const text = p.in === "path" ? decodeURIComponent(values[op.names.indexOf(p.name)] ?? "") : query.get(p.name);
        if (text === null) return [];
        return p.validate(typed(text, p.validate.schema as Json))
          ? []
          : [`${p.in} parameter ${p.name} ${p.validate.errors?.[0]?.message ?? "is invalid"}`];
      });
      return wrong.length > 0 ? wrong.join("; ") : null;
    },
  };
}
