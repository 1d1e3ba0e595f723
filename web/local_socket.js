// A stand-in for the WebSocket when the server cannot be reached: the same messages, answered by
// the server's own room and computer running in a Web Worker (web/offline/worker.js). Net opens it
// instead of a WebSocket when the page plays offline; nothing else in the page can tell.

export class LocalSocket extends EventTarget {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSED = 3;

  constructor() {
    super();
    this.readyState = LocalSocket.CONNECTING;
    this.records = new Map(); // record requests waiting for the worker, by id
    this.nextRecord = 1;
    this.worker = new Worker(new URL('./offline/worker.js', import.meta.url), { type: 'module' });
    this.worker.onmessage = (ev) => {
      const d = ev.data ?? {};
      if (this.readyState === LocalSocket.CLOSED) return;
      if (d.open) {
        this.readyState = LocalSocket.OPEN;
        this.dispatchEvent(new Event('open'));
      } else if ('recordId' in d) {
        this.records.get(d.recordId)?.(d.text);
        this.records.delete(d.recordId);
      } else if (typeof d.text === 'string') {
        this.dispatchEvent(new MessageEvent('message', { data: d.text }));
      } else if (d.failed) {
        this.close();
      }
    };
    this.worker.onerror = () => this.close();
  }

  send(text) {
    if (this.readyState === LocalSocket.OPEN) this.worker.postMessage({ text });
  }

  /**
   * The answer GET `url` would get from the server for a game played here (/api/games/{room},
   * its .pdn and its /positions), as a Response; null for any other address.
   */
  async answer(url) {
    const u = new URL(url, location.href);
    const m = u.pathname.match(/^\/api\/games\/([^/.]+)(\.pdn|\/positions)?$/);
    if (!m || this.readyState !== LocalSocket.OPEN) return null;
    const format = m[2] === '.pdn' ? 1 : m[2] === '/positions' ? 2 : 0;
    const game = Number(u.searchParams.get('game') ?? 0) || 0;
    const id = this.nextRecord++;
    const text = await new Promise((done) => {
      this.records.set(id, done);
      this.worker.postMessage({ recordId: id, record: { room: decodeURIComponent(m[1]).toUpperCase(), format, game } });
    });
    if (text === null) {
      return new Response(JSON.stringify({ error: 'unknown_room', message: 'no such game in this browser' }), {
        status: 404,
        headers: { 'Content-Type': 'application/json' },
      });
    }
    const type = format === 1 ? 'text/plain; charset=utf-8' : 'application/json';
    return new Response(text, { status: 200, headers: { 'Content-Type': type } });
  }

  close() {
    if (this.readyState === LocalSocket.CLOSED) return;
    this.readyState = LocalSocket.CLOSED;
    this.worker.terminate();
    this.dispatchEvent(new Event('close'));
  }
}
