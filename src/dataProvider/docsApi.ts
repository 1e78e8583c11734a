// The second step of src/dataProvider/docsParser.ts: @api-platform/api-doc-parser's objects (Api, Resource, Field,
// Operation, Parameter) from the plain parse of the docs, as its parseHydraDocumentation makes them.
import { Api, Field, Operation, Parameter, Resource } from '@api-platform/api-doc-parser';
import type { PlainApi } from './docsParser';

/** The library's objects from the plain data: what @api-platform/admin's guessers and data provider read. */
export function toApi(plain: PlainApi, entrypointUrl: string): Api {
  const entrypoint = entrypointUrl.replace(/\/+$/, '');
  const fields: Field[] = [];
  const resources = plain.resources.map((r) => {
    const resourceFields = r.fields.map(({ readable, writable, ...field }) => {
      const parsed = new Field(field.name, field as never);
      fields.push(parsed);
      return { parsed, readable, writable };
    });
    const resource = new Resource(r.name, `${entrypoint}/${r.name}`, {
      id: r.id,
      title: r.title,
      fields: resourceFields.map((f) => f.parsed),
      readableFields: resourceFields.filter((f) => f.readable).map((f) => f.parsed),
      writableFields: resourceFields.filter((f) => f.writable).map((f) => f.parsed),
      operations: r.operations.map(({ name, type, ...options }) => new Operation(name, type as never, options as never)),
      deprecated: false,
    });
    resource.parameters = [];
    // What api-doc-parser's getParameters reads from a page of the collection: the template's mapped properties.
    resource.getParameters = async () => {
      resource.parameters = r.search
        .filter((mapping) => mapping.property !== null)
        .map(({ variable, property, required }) => new Parameter(variable, resource.fields?.find((f) => f.name === property)?.range ?? null, required, ''));
      return resource.parameters;
    };
    return resource;
  });
  for (const field of fields) {
    field.reference = field.reference === null ? null : (resources.find((r) => r.id === field.reference) ?? null);
    field.embedded = field.embedded === null ? null : (resources.find((r) => r.id === field.embedded) ?? null);
  }
  return new Api(entrypoint, { title: plain.title, resources });
}
