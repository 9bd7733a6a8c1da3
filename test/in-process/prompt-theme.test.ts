// The hidden prompt on a colour terminal: only the prompt's own words, never the status inquirer
// hands to its style functions (it printed "? API key: idle [input is masked]", "loading", "done").
import { PassThrough } from 'node:stream';
import password from '@inquirer/password';
import { describe, expect, it } from 'vitest';
import { promptTheme } from '../../src/output/prompt';

const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

async function typeSecret(color: boolean): Promise<{ answer: string; shown: string }> {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (c: Buffer) => (shown += c.toString('utf8')));
  const answer = password({ message: 'API key:', mask: false, theme: promptTheme(color) }, { input, output, clearPromptOnDone: false });
  input.write('sk_test_sandbox\n');
  return { answer: await answer, shown: shown.replace(ANSI, '') };
}

describe('the hidden prompt', () => {
  for (const color of [true, false]) {
    it(`shows no prompt status words ${color ? 'in colour' : 'without colour'}`, async () => {
      const { answer, shown } = await typeSecret(color);
      expect(answer).toBe('sk_test_sandbox');
      expect(shown).toContain('API key:');
      expect(shown).toContain('[input is masked]');
      expect(shown).not.toMatch(/\b(idle|loading|done)\b/);
      expect(shown).not.toContain('sk_test_sandbox');
    });
  }

  it('the colour theme draws the message in bold, the status left out', () => {
    const style = promptTheme(true).style as unknown as Record<string, (...a: string[]) => string>;
    expect(style.message!('API key:', 'idle')).toBe('\x1b[1mAPI key:\x1b[22m');
    expect(style.answer!('x', 'done')).not.toContain('done');
  });
});
