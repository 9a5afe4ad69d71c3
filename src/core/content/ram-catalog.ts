/**
 * The RAM catalog of a content folder (DESIGN.md §1; the RAM proposal's `Resource` and `Operation`): every
 * resource and operation defined in resource files, ramFiles and agents' front matter, merged by id with
 * the deep-equal rule.
 */
import { formatPath, type Diagnostic } from '../util/errors.js';
import { withoutUndefined } from '../util/json.js';
import { canonicalJson } from '../trust/jcs.js';
import type { OperationInput, RamOperation, RamResource, ResourceInput } from '../schema/ram.js';
import type { CatalogOperation, CatalogResource, Origin } from '../model/content.js';
import type { SourceDoc } from '../model/source.js';
import type { TextTable } from '../model/text-table.js';

function toRamResource(r: ResourceInput): RamResource {
  return withoutUndefined({
    id: r.id,
    interactionProtocol: r.interactionProtocol,
    owner: r.owner,
    displayName: r.displayName,
    description: r.description,
    developerDocumentationUrl: r.developerDocumentationUrl,
    spec: r.spec ? withoutUndefined(r.spec) : undefined,
  });
}

function toRamOperation(o: OperationInput): RamOperation {
  return withoutUndefined({
    id: o.id,
    resource: o.resource,
    description: o.description,
    developerDocumentationUrl: o.developerDocumentationUrl,
    apiOperationSpec: o.apiOperationSpec ? withoutUndefined(o.apiOperationSpec) : undefined,
  });
}

/**
 * The RAM catalog shared by every agent (DESIGN.md §1), assembled from resource files, ramFiles and inline
 * resources: `resources` and `operations` by id, each with where it was defined. A second definition of
 * an id must be deep-equal in its RAM fields (compared as RFC 8785 JCS); otherwise, and for an id given
 * twice in one file, a `RAM_CONFLICTING_DEFINITION` / `RAM_DUPLICATE_ID` error goes to the diagnostics.
 * Never throws on bad input.
 */
export class RamCatalog {
  readonly resources = new Map<string, CatalogResource>();
  readonly operations = new Map<string, CatalogOperation>();
  constructor(
    private readonly diagnostics: Diagnostic[],
    /** The texts in other languages: two definitions must give the same ones. */
    private readonly texts: TextTable,
  ) {}

  /**
   * Adds `item` under `id`. The RAM fields (`ram`) of two definitions must be deep-equal; an
   * authoring-only field (one of `extras`) given by one side only is taken from that side, and conflicts
   * when both give it differently.
   */
  private merge<T extends { origin: Origin }>(
    map: Map<string, T>,
    kind: 'resource' | 'operation',
    id: string,
    item: T,
    ram: (t: T) => unknown,
    extras: ReadonlyArray<keyof T>,
    textFields: readonly string[],
  ): void {
    const existing = map.get(id);
    if (!existing) {
      map.set(id, item);
      return;
    }
    const here = item.origin;
    const there = existing.origin;
    // A resource file is one resource: its path is the whole document.
    const path = formatPath(here.path) || '(document)';
    if (here.source === there.source) {
      this.diagnostics.push(
        here.source.diagnostic(
          {
            code: 'RAM_DUPLICATE_ID',
            severity: 'error',
            message: `${kind} id "${id}" is defined twice in this file`,
            path: formatPath([...here.path, 'id']),
          },
          [...here.path, 'id'],
        ),
      );
      return;
    }
    const extraConflict = extras.some(
      (extra) =>
        existing[extra] !== undefined && item[extra] !== undefined && existing[extra] !== item[extra],
    );
    // Texts in other languages are authoring data too: one side's are taken, two different ones conflict.
    const textConflict = this.texts.conflicts(here, there, textFields);
    if (!extraConflict && !textConflict && canonicalJson(ram(existing)) === canonicalJson(ram(item))) {
      for (const extra of extras)
        if (existing[extra] === undefined && item[extra] !== undefined) existing[extra] = item[extra];
      this.texts.copy(here, there, textFields);
      return;
    }
    const thereLine = there.source.locate(there.path)?.line;
    this.diagnostics.push(
      here.source.diagnostic(
        {
          code: 'RAM_CONFLICTING_DEFINITION',
          severity: 'error',
          message: `${kind} "${id}" is also defined in ${there.source.file}${thereLine ? `:${thereLine}` : ''} with different content; make the two definitions equal or keep one`,
          path,
        },
        here.path,
      ),
    );
  }

  /** Adds a resource (RAM proposal `Resource`) defined at `origin`. */
  addResource(input: ResourceInput, origin: Origin): void {
    const item: CatalogResource = { resource: toRamResource(input), origin };
    if (input.manageAccessUrl) item.manageAccessUrl = input.manageAccessUrl;
    if (input.specFile) item.specFile = input.specFile;
    if (input.specDigest) item.specDigest = input.specDigest;
    this.merge(
      this.resources,
      'resource',
      input.id,
      item,
      (r) => r.resource,
      ['manageAccessUrl', 'specFile', 'specDigest'],
      ['displayName', 'description'],
    );
  }

  /** Adds an operation (RAM proposal `Operation`) defined at `origin`. */
  addOperation(input: OperationInput, origin: Origin): void {
    const item: CatalogOperation = { operation: toRamOperation(input), origin };
    if (input.readOnly !== undefined) item.readOnly = input.readOnly;
    this.merge(
      this.operations,
      'operation',
      input.id,
      item,
      (o) => o.operation,
      ['readOnly'],
      ['description'],
    );
  }

  /** Adds a resource file's resource and its nested operations (`resource` implied). */
  addResourceWithOperations(
    input: ResourceInput & { operations?: Array<Omit<OperationInput, 'resource'> & { resource?: string }> },
    source: SourceDoc,
    basePath: PropertyKey[],
  ): void {
    const { operations, ...resource } = input;
    this.addResource(resource, { source, path: basePath });
    (operations ?? []).forEach((op, i) => {
      const opPath = [...basePath, 'operations', i];
      if (op.resource !== undefined && op.resource !== input.id) {
        this.diagnostics.push(
          source.diagnostic(
            {
              code: 'RAM_DANGLING_RESOURCE',
              severity: 'error',
              message: `an operation nested under resource "${input.id}" names resource "${op.resource}"`,
              path: formatPath([...opPath, 'resource']),
            },
            [...opPath, 'resource'],
          ),
        );
      }
      this.addOperation({ ...op, resource: input.id }, { source, path: opPath });
    });
  }
}
