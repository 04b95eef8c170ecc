/**
 * A TCP proxy in the test process between a worker and MariaDB: the worker's DataSource
 * connects to its port, the test keeps a direct connection. It can cut the database off (every open
 * connection destroyed, every new one closed at once) and restore it, or freeze it (nothing passes, as
 * with a server stopped by SIGSTOP) and thaw it, and it reads the client's side of
 * the MySQL protocol, so a test can stop a step at a chosen statement: hold the statement itself (it never
 * reaches the server until released; a cut destroys it with its connection, and the server rolls the
 * transaction back), or let it through and hold the server's answer to the COMMIT that follows it (the
 * transaction is committed, the worker never hears so). Statements are read from COM_QUERY and
 * COM_STMT_PREPARE packets; mysql2 formats a query's parameters into its text, so ids are matched there.
 */
import net from 'net';

export type HoldMode = 'statement' | 'commit-answer';

export interface Hold {
  /** Resolves once the statement, or the answer to the COMMIT after it, is held. */
  readonly reached: Promise<void>;
  readonly isReached: boolean;
  /** Lets what is held through (if its connection is still open). */
  release(): void;
  /** Closes the held connection instead: a held statement never runs, the server rolls its transaction back. */
  drop(): void;
}

interface Rule {
  match: (sql: string) => boolean;
  mode: HoldMode;
  hold: HoldState | GateState;
}

/** Holds every statement it matches, until opened. */
export interface Gate {
  /** The statements held so far (released ones included). */
  readonly held: string[];
  /** Resolves once `count` statements are held. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  /**
   * Stops holding new statements and lets through those held, except the ones `keep` accepts: they stay
   * held (until a cut destroys them, or their own release), returned as Holds.
   */
  open(keep?: (sql: string) => boolean): KeptHold[];
}

/** A statement a gate kept held when it opened. */
export interface KeptHold extends Hold {
  readonly sql: string;
}

class GateState implements Gate {
  readonly held: string[] = [];
  private readonly waiting: Array<{ sql: string; release: () => void; drop: () => void }> = [];
  private readonly waiters: Array<{ count: number; resolve: () => void }> = [];
  private removeRule: () => void = () => undefined;

  constructor(remove: (gate: GateState) => void) {
    this.removeRule = () => remove(this);
  }

  reach(sql: string, release: () => void, drop: () => void): void {
    this.held.push(sql);
    this.waiting.push({ sql, release, drop });
    for (const w of this.waiters.filter((x) => this.held.length >= x.count)) w.resolve();
  }

  async waitFor(count: number, timeoutMs = 60_000): Promise<void> {
    if (this.held.length >= count) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      new Promise<void>((resolve) => this.waiters.push({ count, resolve })),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the gate held ${this.held.length} statements of ${count}:\n${this.held.join('\n')}`)),
          timeoutMs,
        );
      }),
    ]).finally(() => clearTimeout(timer));
  }

  open(keep: (sql: string) => boolean = () => false): KeptHold[] {
    this.removeRule();
    const kept: KeptHold[] = [];
    for (const { sql, release, drop } of this.waiting.splice(0)) {
      if (!keep(sql)) {
        release();
        continue;
      }
      const hold = Object.assign(new HoldState(), { sql });
      hold.reach(release, drop);
      kept.push(hold);
    }
    return kept;
  }
}

class HoldState implements Hold {
  isReached = false;
  readonly reached: Promise<void>;
  private resolve!: () => void;
  private releaser: (() => void) | null = null;
  private dropper: (() => void) | null = null;
  private released = false;

  constructor() {
    this.reached = new Promise((resolve) => {
      this.resolve = resolve;
    });
  }

  reach(release: () => void, drop: () => void): void {
    this.isReached = true;
    this.dropper = drop;
    if (this.released) {
      release();
      return;
    }
    this.releaser = release;
    this.resolve();
  }

  release(): void {
    this.released = true;
    const releaser = this.releaser;
    this.releaser = null;
    releaser?.();
  }

  drop(): void {
    this.releaser = null;
    this.dropper?.();
  }
}

const COM_QUERY = 0x03;
const COM_STMT_PREPARE = 0x16;

/** One client connection and its connection to the server. */
class Pair {
  /** Client bytes not yet read as whole packets. */
  private pending: Buffer = Buffer.alloc(0);
  /** A held statement's packet; client bytes arriving meanwhile wait in clientQueue. */
  private heldPacket: Buffer | null = null;
  private clientQueue: Buffer[] = [];
  /** Server bytes held back (the answer to a held COMMIT). */
  private serverQueue: Buffer[] | null = null;
  /** A 'commit-answer' rule whose statement went through: the next COMMIT's answer is held. */
  private armed: Rule | null = null;
  private holdNextAnswer: HoldState | null = null;

  /** Bytes that arrived while the proxy was frozen, in order, with their direction. */
  private frozen: Array<{ fromClient: boolean; chunk: Buffer }> = [];

  constructor(
    readonly client: net.Socket,
    readonly server: net.Socket,
    private readonly proxy: TcpProxy,
  ) {
    client.on('data', (chunk) =>
      proxy.isFrozen ? this.frozen.push({ fromClient: true, chunk }) : this.fromClient(chunk),
    );
    server.on('data', (chunk) =>
      proxy.isFrozen ? this.frozen.push({ fromClient: false, chunk }) : this.fromServer(chunk),
    );
    const close = () => this.destroy();
    for (const socket of [client, server]) {
      socket.on('error', close);
      socket.on('close', close);
    }
  }

  /** Passes on what arrived while frozen. */
  thaw(): void {
    for (const { fromClient, chunk } of this.frozen.splice(0)) {
      if (fromClient) this.fromClient(chunk);
      else this.fromServer(chunk);
    }
  }

  destroy(): void {
    this.client.destroy();
    this.server.destroy();
    this.proxy.forget(this);
  }

  private fromServer(chunk: Buffer): void {
    if (this.serverQueue) return void this.serverQueue.push(chunk);
    if (this.holdNextAnswer) {
      const hold = this.holdNextAnswer;
      this.holdNextAnswer = null;
      this.serverQueue = [chunk];
      hold.reach(
        () => {
          const queued = this.serverQueue ?? [];
          this.serverQueue = null;
          for (const c of queued) this.client.write(c);
        },
        () => this.destroy(),
      );
      return;
    }
    this.client.write(chunk);
  }

  private fromClient(chunk: Buffer): void {
    if (this.heldPacket) return void this.clientQueue.push(chunk);
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    while (!this.heldPacket && this.pending.length >= 4) {
      const length = this.pending.readUIntLE(0, 3);
      if (this.pending.length < 4 + length) break;
      const packet = this.pending.subarray(0, 4 + length);
      this.pending = this.pending.subarray(4 + length);
      this.packet(packet);
    }
  }

  private packet(packet: Buffer): void {
    const sequence = packet[3];
    const command = packet[4];
    // a command starts a new exchange (sequence 0); the handshake's packets never do
    if (sequence !== 0 || (command !== COM_QUERY && command !== COM_STMT_PREPARE)) {
      this.server.write(packet);
      return;
    }
    const sql = packet.subarray(5).toString('utf8');
    this.proxy.statement(sql);
    if (this.armed && /^\s*COMMIT\b/i.test(sql)) {
      this.holdNextAnswer = this.armed.hold as HoldState;
      this.armed = null;
      this.server.write(packet);
      return;
    }
    const rule = this.proxy.ruleFor(sql);
    if (rule?.mode === 'statement') {
      this.heldPacket = packet;
      const release = () => {
        if (!this.heldPacket) return;
        this.server.write(this.heldPacket);
        this.heldPacket = null;
        const queued = this.clientQueue;
        this.clientQueue = [];
        this.fromClient(Buffer.concat(queued));
      };
      const drop = () => this.destroy();
      if (rule.hold instanceof GateState) rule.hold.reach(sql, release, drop);
      else rule.hold.reach(release, drop);
      return;
    }
    if (rule?.mode === 'commit-answer') this.armed = rule;
    this.server.write(packet);
  }
}

export class TcpProxy {
  private readonly listener: net.Server;
  private readonly pairs = new Set<Pair>();
  private readonly rules: Rule[] = [];
  private cut = false;
  /** Connections opened through the proxy, and those closed at once during a cut. */
  readonly counts = { connections: 0, refused: 0 };
  /** Called with every statement a client sends (diagnostics). */
  onStatement: ((sql: string) => void) | null = null;

  constructor(private readonly target: { host: string; port: number }) {
    this.listener = net.createServer((client) => this.accept(client));
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.listener.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get port(): number {
    return (this.listener.address() as net.AddressInfo).port;
  }

  private accept(client: net.Socket): void {
    if (this.cut) {
      this.counts.refused++;
      client.on('error', () => undefined);
      client.resetAndDestroy();
      return;
    }
    this.counts.connections++;
    const server = net.connect(this.target.port, this.target.host);
    client.setNoDelay(true);
    server.setNoDelay(true);
    this.pairs.add(new Pair(client, server, this));
  }

  /** @internal */
  forget(pair: Pair): void {
    this.pairs.delete(pair);
  }

  /** @internal */
  statement(sql: string): void {
    this.onStatement?.(sql);
  }

  /** @internal The first rule the statement matches; a hold's is consumed, a gate's stays. */
  ruleFor(sql: string): Rule | undefined {
    const index = this.rules.findIndex((r) => r.match(sql));
    if (index < 0) return undefined;
    const rule = this.rules[index];
    if (!(rule.hold instanceof GateState)) this.rules.splice(index, 1);
    return rule;
  }

  /** Holds every statement `match` accepts, until the gate is opened. Gates are asked before holds. */
  gate(match: (sql: string) => boolean): Gate {
    const gate = new GateState((g) => {
      const index = this.rules.findIndex((r) => r.hold === g);
      if (index >= 0) this.rules.splice(index, 1);
    });
    this.rules.unshift({ match, mode: 'statement', hold: gate });
    return gate;
  }

  /**
   * Holds the first statement `match` accepts ('statement'), or lets it through and holds the answer to
   * the COMMIT that follows it on the same connection ('commit-answer').
   */
  hold(match: (sql: string) => boolean, mode: HoldMode = 'statement'): Hold {
    const hold = new HoldState();
    this.rules.push({ match, mode, hold });
    return hold;
  }

  /** The database is gone for the worker: open connections destroyed, new ones reset. */
  cutOff(): void {
    this.cut = true;
    for (const pair of [...this.pairs]) pair.destroy();
  }

  restore(): void {
    this.cut = false;
  }

  private frozen = false;

  /** @internal */
  get isFrozen(): boolean {
    return this.frozen;
  }

  /**
   * The database hangs for the client, as a server stopped with SIGSTOP: connections stay open and new
   * ones are accepted, but nothing passes either way until thaw().
   */
  freeze(): void {
    this.frozen = true;
  }

  thaw(): void {
    this.frozen = false;
    for (const pair of [...this.pairs]) pair.thaw();
  }

  /**
   * Back to a plain proxy after a test, passed or failed: no rules, nothing frozen, and every held
   * statement destroyed with its connection, so that no transaction it left open keeps its locks for the
   * next test (and the suites that share the database).
   */
  reset(): void {
    this.rules.length = 0;
    this.thaw();
    this.cutOff();
    this.restore();
  }

  get openConnections(): number {
    return this.pairs.size;
  }

  async close(): Promise<void> {
    this.cutOff();
    await new Promise((resolve) => this.listener.close(resolve));
  }
}
