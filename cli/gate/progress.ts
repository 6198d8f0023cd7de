import type { Writable } from 'node:stream';
import type { PartResult, RunSummary } from '../../kernel/results.ts';
import type { Redactor } from '../../reports/redact.ts';
import { formatDuration } from '../../reports/format.ts';
import { colorEnabled, paint as paintWith, type Paint } from '../../reports/output/color.ts';
import { failedCheckBlocks } from '../../reports/output/failed-lines.ts';
import { advisoryLines } from '../../reports/output/advisory-lines.ts';
import { selfCommand } from '../../kernel/self-command.ts';
import { skipLines } from '../output/skips.ts';

// Progress as the gate goes: on a terminal, one status line redrawn in place (step,
// elapsed time, last message) with finished steps printed above it; elsewhere (CI logs,
// pipes) plain lines only, since carriage returns garble log files.

const MARK: Record<PartResult['status'], string> = { passed: 'PASS', failed: 'FAIL', skipped: 'SKIP', incomplete: 'INCOMPLETE' };
const VERDICT_MARK: Record<RunSummary['verdict'], string> = { passed: 'PASS', failed: 'FAIL', incomplete: 'INCOMPLETE' };

export class Progress {
  private timer: NodeJS.Timeout | undefined;
  private status = '';
  private stepStarted = 0;
  private lastMessage = '';

  constructor(
    private readonly out: Writable & { isTTY?: boolean; columns?: number },
    private readonly redactor: Redactor,
    readonly live: boolean = !!out.isTTY,
    private readonly paint: Paint = paintWith(colorEnabled(out)),
  ) {}

  private line(s: string): void {
    if (this.live) this.out.write('\r\x1b[K');
    this.out.write(this.redactor.text(s) + '\n');
    if (this.live) this.draw();
  }

  private draw(): void {
    if (!this.live || !this.status) return;
    const elapsed = formatDuration(Date.now() - this.stepStarted);
    const text = this.redactor.text(`${this.status} · ${elapsed}${this.lastMessage ? ` · ${this.lastMessage}` : ''}`);
    const width = Math.max(20, (this.out.columns || 100) - 1);
    this.out.write(`\r\x1b[K${text.length > width ? text.slice(0, width - 1) + '…' : text}`);
  }

  start(target: string, profile: string, steps: string[]): void {
    this.line(`lendcheck gate → ${target} (profile ${profile}); steps: ${steps.join(' → ')}`);
  }

  stepStart(index: number, total: number, name: string, title: string): void {
    this.status = `[${index}/${total}] ${name}: ${title}`;
    this.stepStarted = Date.now();
    this.lastMessage = '';
    if (this.live) {
      this.draw();
      this.timer = setInterval(() => this.draw(), 250);
      this.timer.unref();
    } else {
      this.line(`${this.status} …`);
    }
  }

  /** A message from inside a part. */
  log(message: string): void {
    if (this.live) {
      this.lastMessage = message.replace(/\s+/g, ' ').trim();
      this.draw();
    } else {
      this.line(`    ${message}`);
    }
  }

  stepEnd(index: number, total: number, p: PartResult): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.status = '';
    const c = { passed: 0, failed: 0, skipped: 0 };
    for (const k of p.checks) c[k.status]++;
    const counts = p.checks.length ? ` — ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped` : '';
    this.line(`${MARK[p.status]} [${index}/${total}] ${p.part} (${formatDuration(p.durationMs)})${counts}${p.skipReason ? ` — ${p.skipReason}` : ''}`);
    for (const k of p.checks.filter((x) => x.status === 'failed' && x.message !== p.skipReason).slice(0, 5)) {
      // Its reproduction is printed once, under it in the list of failed checks after the verdict.
      this.line(`       ${this.paint.red('✗')} ${k.title}: ${k.message ?? ''}`);
      if (k.internalError) this.line(`         lendcheck internal error (a bug in lendcheck, not a verdict on the target):\n${k.internalError}`);
    }
    const more = c.failed - 5;
    if (more > 0) this.line(`       … and ${more} more failures (see the report)`);
    // Every skip states its reason on the console too (the part's own reason is on its line above).
    if (c.skipped) for (const l of skipLines(p, 5)) this.line(`       ${l}`);
  }

  end(summary: RunSummary, reportPath: string | undefined): void {
    if (this.timer) clearInterval(this.timer);
    if (this.live) this.out.write('\r\x1b[K');
    const failed = summary.parts.filter((p) => p.status === 'failed').map((p) => p.part);
    const skipped = summary.parts.filter((p) => p.status === 'skipped').map((p) => p.part);
    const incomplete = summary.parts.filter((p) => p.status === 'incomplete').map((p) => p.part);
    this.line(
      `verdict: ${VERDICT_MARK[summary.verdict]} in ${formatDuration(summary.durationMs)}` +
        (failed.length ? ` — failed: ${failed.join(', ')}` : '') +
        (incomplete.length ? ` — incomplete: ${incomplete.join(', ')}` : '') +
        (skipped.length ? ` — skipped: ${skipped.join(', ')}` : ''),
    );
    if (summary.verdict === 'incomplete') for (const r of summary.verdictReasons ?? []) this.line(`       ? ${r}`);
    const blocks = failedCheckBlocks(summary.parts, this.paint);
    if (blocks.length) {
      this.line(`failed checks (${blocks.length}; each with its reproduction, whole in the report and failures.json; \`${selfCommand()} gate --rerun-failed\` runs them again):`);
      for (const l of blocks.flat()) this.line(l);
    }
    // Advice after the verdict, apart from it: it never changes one (issue 47).
    for (const l of advisoryLines(summary.parts, this.paint)) this.line(l);
    if (reportPath) this.line(`report: ${reportPath}`);
  }
}
