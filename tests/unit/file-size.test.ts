// A document's size as the drawer shows it: French units by 1 024, a decimal comma, one decimal at most.
import { describe, expect, it } from 'vitest';
import { formatFileSize } from '#domain/format';

const plain = (text: string) => text.replace(/\s/g, ' ');

describe('formatFileSize', () => {
  it('writes bytes, kilobytes and megabytes the French way', () => {
    expect(plain(formatFileSize(70))).toBe('70 o');
    expect(plain(formatFileSize(1536))).toBe('1,5 ko');
    expect(plain(formatFileSize(10 * 1024 * 1024))).toBe('10 Mo');
    expect(plain(formatFileSize(2_621_440))).toBe('2,5 Mo');
  });

  it('says when the size is unknown', () => {
    expect(formatFileSize(undefined)).toBe('Non définie');
    expect(formatFileSize(-1)).toBe('Non définie');
  });
});
