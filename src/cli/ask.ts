/** A yes/no question on the terminal, for commands that change many things at once (`jobs retry --failed`). */
import { createInterface } from 'node:readline/promises';

/** True when stdin and stderr are a terminal a person can answer on. */
export function canAsk(): boolean {
  return process.stdin.isTTY === true && process.stderr.isTTY === true;
}

/** Asks on stderr (stdout stays the command's output); only `y` or `yes` is a yes. */
export async function askYesNo(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`${question} [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
