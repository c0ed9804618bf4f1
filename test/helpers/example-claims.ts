// What a shell example claims, made checkable: `# => OUTPUT` comments become checks, and curls that would pass
// on any HTTP status are found (test/README.md, "The README examples test", states the rule).

/** A claimed output on its own line, right below the command it belongs to. */
const CLAIM_LINE = /^\s*# => ?(.*)$/;
/** A claimed output after the command on the same line. */
const TRAILING_CLAIM = /\s# => (.*)$/;
/** What each checked claim prints on stderr, so the test can count that every claim ran. */
export const CLAIM_HELD = 'readme-examples: claim held';

/**
 * The shell function the rewritten commands pipe into: it prints what it read (so a failure shows it), then
 * finds each piece in order (anything may stand between two pieces), and fails naming the first one missing.
 */
export const CLAIMS_PRELUDE = `__claims() {
  local out rest piece
  out=$(cat); printf '%s\\n' "$out"; rest=$out
  for piece in "$@"; do
    case "$rest" in
      *"$piece"*) rest=\${rest#*"$piece"} ;;
      *) printf 'readme-examples: the output above lacks: %s\\n' "$piece" >&2; return 1 ;;
    esac
  done
  echo '${CLAIM_HELD}' >&2
}
`;

const shellQuote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * The block with every claimed output checked: a command followed by `# => TEXT` (on its line, or on the
 * lines right below it) gets its standard output piped through __claims. `...` in TEXT and each line break
 * between claim lines stand for anything; each piece is trimmed. Line numbers are kept (a claim line becomes
 * empty). Throws on a claim with no command before it.
 */
export function withClaimChecks(code: string): { code: string; claims: number } {
  const lines = code.split('\n');
  const out: string[] = [];
  let claims = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const trailing = CLAIM_LINE.test(line) ? null : TRAILING_CLAIM.exec(line);
    const command = trailing ? line.slice(0, trailing.index) : line;
    const fragments = trailing ? [trailing[1]!] : [];
    const start = out.length;
    out.push(command);
    while (i + 1 < lines.length && CLAIM_LINE.test(lines[i + 1]!)) {
      fragments.push(CLAIM_LINE.exec(lines[++i]!)![1]!);
      out.push('');
    }
    if (fragments.length === 0) continue;
    // A comment before the claim would comment out the check too.
    if (command.trim() === '' || /(^|\s)#/.test(command) || command.trimEnd().endsWith('\\'))
      throw new Error(`line ${i + 1}: a "# =>" claim must follow the command whose output it shows (no other comment)`);
    const pieces = fragments.flatMap((f) => f.split('...')).map((p) => p.trim());
    out[start] = `${command.trimEnd()} | __claims ${pieces
      .filter((p) => p !== '')
      .map(shellQuote)
      .join(' ')}`;
    claims++;
  }
  return { code: out.join('\n'), claims };
}

/** The words of a shell line, roughly: enough to find curl and its options (quotes kept). */
const wordsOf = (line: string): string[] => line.split(/\s+/);

/**
 * The curl commands of a shell block that pass whatever the HTTP status: neither -f / --fail / --fail-with-body
 * (a short-option group holding f, such as -sf or -fsS) nor a -w/--write-out that prints %{http_code}. Each is
 * given as the line it starts on.
 */
export function curlsWithoutStatusCheck(code: string): string[] {
  const found: string[] = [];
  for (const line of code.replace(/\\\n/g, ' ').split('\n')) {
    // Words after a comment's # are prose, not commands.
    const words = wordsOf(line.replace(/(^|\s)#.*$/, ''));
    for (let i = 0; i < words.length; i++) {
      if (words[i]!.replace(/^[("'$]+/, '') !== 'curl') continue;
      let checked = false;
      for (let j = i + 1; j < words.length && !/^(\||&&|;|\)|#)/.test(words[j]!); j++) {
        const word = words[j]!;
        if (word === '--fail' || word === '--fail-with-body' || /^-[a-eg-zA-Z]*f[a-zA-Z]*$/.test(word)) checked = true;
        if ((word === '-w' || word === '--write-out') && (words[j + 1] ?? '').includes('%{http_code}')) checked = true;
      }
      if (!checked) found.push(line.trim());
    }
  }
  return found;
}
