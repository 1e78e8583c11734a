// Every field of every declaration carries its French label: the generated screens, the audit trail's changed
// fields and the permission catalogue show it, never the API's own name.
import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../../server/resources';

describe('resource declarations', () => {
  it('label every field in French', () => {
    const unlabelled = RESOURCES.flatMap((decl) =>
      Object.entries(decl.fields)
        .filter(([, field]) => !field.label?.trim())
        .map(([name]) => `${decl.name}.${name}`),
    );
    expect(unlabelled).toEqual([]);
  });
});
