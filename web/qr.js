// The invitation's LAN link and its QR code (issue 7). The server lists the base URLs other devices on
// the local network can open (GET /api/server: {"lan_urls":[...]}), and draws any link as an SVG QR
// code (GET /api/qr?text=..., up to 256 bytes; server/qr.cpp). Nothing here touches the page until
// the caller asks for an element.

const QR_TEXT_MAX = 256;

// The server's info: {server, version, protocol, lan_urls}; lan_urls is [] when it cannot be read.
export async function serverInfo(fetchImpl = globalThis.fetch) {
  try {
    const res = await fetchImpl('/api/server', { headers: { Accept: 'application/json' } });
    if (!res.ok) return { lan_urls: [] };
    const info = await res.json();
    return { ...info, lan_urls: Array.isArray(info.lan_urls) ? info.lan_urls : [] };
  } catch {
    return { lan_urls: [] };
  }
}

// A path of this server (such as "/r/K7QF2M") under a base URL ("http://192.168.1.20:8080/").
export function joinUrl(base, path) {
  return base.replace(/\/+$/, '') + '/' + String(path).replace(/^\/+/, '');
}

// Whether the page was opened through a name only this machine understands.
export function isLocalHost(hostname) {
  const h = String(hostname)
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\./.test(h);
}

// The links to offer for a room path: `share` is the one to show first (and to draw as a QR code):
// the page's own address when others can reach it, else the first LAN address; `lan` lists every
// LAN link.
export function invitationLinks(path, lanUrls, loc = globalThis.location) {
  const lan = (lanUrls || []).map((base) => joinUrl(base, path));
  const own = joinUrl(loc.origin, path);
  const share = isLocalHost(loc.hostname) && lan.length ? lan[0] : own;
  return { share, own, lan };
}

// The address of the QR code image of `text`, or null when the text is too long for the server.
export function qrImageUrl(text) {
  if (new TextEncoder().encode(text).length > QR_TEXT_MAX) return null;
  return '/api/qr?text=' + encodeURIComponent(text);
}

// Fetches the LAN URLs and returns the links for a room path (see invitationLinks) with `qr`, the
// QR image address of the share link.
export async function invitation(path, { fetchImpl = globalThis.fetch, loc = globalThis.location } = {}) {
  const info = await serverInfo(fetchImpl);
  const links = invitationLinks(path, info.lan_urls, loc);
  return { ...links, qr: qrImageUrl(links.share) };
}

// An <img> of the QR code of `text` (null when it is too long), `size` CSS pixels square.
export function qrImage(text, { size = 192, alt = 'QR code of ' + text } = {}) {
  const src = qrImageUrl(text);
  if (!src) return null;
  const img = document.createElement('img');
  img.src = src;
  img.alt = alt;
  img.width = size;
  img.height = size;
  img.className = 'qr';
  img.style.imageRendering = 'pixelated';
  return img;
}
