import { describe, expect, it } from 'vitest';
import { guessMimeType } from '../../../src/domain/mime-types.js';

describe('MIME types from mime-types (issue 11, item 11)', () => {
  it.each([
    ['IMG_0001.HEIC', 'image/heic'],
    ['clip.mov', 'video/quicktime'],
    ['deck.pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
    ['notes.txt', 'text/plain'],
    ['photo.jpeg', 'image/jpeg'],
  ])('guesses %s as %s from its extension', (name, type) => {
    expect(guessMimeType(name)).toBe(type);
    expect(guessMimeType(name, 'application/octet-stream')).toBe(type);
  });

  it('keeps a declared specific type, and falls back to application/octet-stream', () => {
    expect(guessMimeType('clip.mov', 'Video/MP4')).toBe('video/mp4');
    expect(guessMimeType('README')).toBe('application/octet-stream');
    expect(guessMimeType('archive.unknownext')).toBe('application/octet-stream');
    expect(guessMimeType('trailing.')).toBe('application/octet-stream');
  });
});
