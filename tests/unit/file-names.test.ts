// @vitest-environment node
// The names a file keeps (domain/documents.ts): a document's and a payment statement's, as a browser or a script sent
// them. No path, no control or direction-changing character (a bidi override makes "fdp.exe" read "exe.pdf").
import { describe, expect, it } from 'vitest';
import { documentName, plainFileName } from '#domain/documents';

describe('file names', () => {
  it('drops the path and the invisible characters, keeps accents and spaces', () => {
    expect(plainFileName('C:\\Users\\léa\\Relevé novembre.csv')).toBe('Relevé novembre.csv');
    // A slash is a path's: what follows the last one is the name.
    expect(plainFileName('../../<b>relevé</b>.csv')).toBe('b>.csv');
    expect(plainFileName('ordonnance\u202Efdp.exe')).toBe('ordonnancefdp.exe');
    expect(plainFileName('a\u0000b\u0007c\u200Ed.pdf')).toBe('abcd.pdf');
    expect(plainFileName('  ')).toBe('');
  });

  it('gives a document the extension of what its bytes are', () => {
    expect(documentName('devis.pdf', 'application/pdf')).toBe('devis.pdf');
    expect(documentName('devis', 'application/pdf')).toBe('devis.pdf');
    expect(documentName('photo.JPEG', 'image/jpeg')).toBe('photo.jpeg');
    expect(documentName('photo.png', 'image/jpeg')).toBe('photo.png.jpg');
    expect(documentName('', 'image/png')).toBe('document.png');
  });
});
