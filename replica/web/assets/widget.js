// The chat bubble for the owner's own site: one line,
//   <script src="https://YOUR-SPACE.hf.space/widget.js" defer></script>
// adds a round button with the owner's face that opens the replica's page in a panel (an iframe: the
// queue, streaming and limits are the page's). Options, as data- attributes of the script tag:
// data-side="left" (else right), data-colour="#0f766e" (any CSS colour), data-question="…" (asked when
// the visitor first opens it). It loads nothing but the app's own files.
(() => {
  const config = /*REPLICA_WIDGET_CONFIG*/ {};
  const script = document.currentScript;
  if (!script || window.__replicaWidget) return;
  window.__replicaWidget = true;
  const app = new URL("./", script.src);  // widget.js is served at the app's root
  const data = script.dataset;
  const side = data.side === "left" ? "left" : "right";
  const colour = data.colour && CSS.supports("color", data.colour) ? data.colour : "#4f46e5";
  const question = (data.question || "").trim().slice(0, 500);
  const OPEN = "replica-widget-open", ASKED = "replica-widget-asked";
  const remember = (key, value) => { try { localStorage.setItem(key, value); } catch (error) { /* private mode */ } };
  const recall = (key) => { try { return localStorage.getItem(key); } catch (error) { return null; } };
  const name = `${config.owner}'s AI replica`;

  const style = document.createElement("style");
  style.textContent = `
    .replica-widget-button { position: fixed; bottom: 20px; ${side}: 20px; z-index: 2147483000; width: 60px; height: 60px;
      border-radius: 50%; border: 3px solid ${colour}; padding: 0; overflow: hidden; cursor: pointer; background: ${colour};
      box-shadow: 0 4px 14px rgba(0,0,0,.25); }
    .replica-widget-button img { width: 100%; height: 100%; object-fit: cover; display: block; }
    .replica-widget-button:focus-visible { outline: 3px solid ${colour}; outline-offset: 3px; }
    .replica-widget-panel { position: fixed; bottom: 92px; ${side}: 20px; z-index: 2147483000; width: min(400px, calc(100vw - 24px));
      height: min(640px, calc(100vh - 112px)); border-radius: 14px; overflow: hidden; background: #fff;
      box-shadow: 0 10px 40px rgba(0,0,0,.3); display: flex; flex-direction: column; border: 1px solid rgba(0,0,0,.12); }
    .replica-widget-panel[hidden] { display: none; }
    .replica-widget-bar { display: flex; align-items: center; justify-content: space-between; gap: 8px; padding: 6px 6px 6px 14px;
      background: ${colour}; color: #fff; font: 600 14px/1.2 system-ui, -apple-system, "Segoe UI", sans-serif; }
    .replica-widget-close { border: 0; background: transparent; color: inherit; font-size: 22px; line-height: 1; width: 36px;
      height: 36px; border-radius: 8px; cursor: pointer; }
    .replica-widget-close:focus-visible { outline: 2px solid #fff; }
    .replica-widget-panel iframe { flex: 1; width: 100%; border: 0; }
    .replica-widget-said { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
    @media (max-width: 480px) { .replica-widget-panel { ${side}: 12px; bottom: 84px; height: calc(100vh - 100px); } }`;
  document.head.appendChild(style);

  const button = document.createElement("button");
  button.type = "button";
  button.className = "replica-widget-button";
  button.setAttribute("aria-label", `Chat with ${name}`);
  button.setAttribute("aria-expanded", "false");
  button.setAttribute("aria-controls", "replica-widget-panel");
  const face = document.createElement("img");
  face.src = new URL(config.face.replace(/^\//, ""), app).href;  // beside widget.js, wherever the app is mounted
  face.alt = "";
  button.appendChild(face);

  const panel = document.createElement("div");
  panel.id = "replica-widget-panel";
  panel.className = "replica-widget-panel";
  panel.setAttribute("role", "dialog");
  panel.setAttribute("aria-label", name);
  panel.hidden = true;
  const bar = document.createElement("div");
  bar.className = "replica-widget-bar";
  const title = document.createElement("span");
  title.textContent = name;
  const close = document.createElement("button");
  close.type = "button";
  close.className = "replica-widget-close";
  close.setAttribute("aria-label", "Close the chat");
  close.textContent = "×";
  bar.append(title, close);
  panel.appendChild(bar);

  const said = document.createElement("div");  // what screen readers are told as the panel opens and closes
  said.className = "replica-widget-said";
  said.setAttribute("role", "status");
  document.body.append(panel, button, said);

  let frame = null;
  function open(byVisitor) {
    if (!frame) {
      frame = document.createElement("iframe");
      const ask = byVisitor && question && !recall(ASKED);
      if (ask) remember(ASKED, "1");
      frame.src = app.href + (ask ? "?q=" + encodeURIComponent(question) : "");
      frame.title = `Chat with ${name}`;
      frame.allow = "clipboard-write";
      panel.appendChild(frame);
    }
    panel.hidden = false;
    button.setAttribute("aria-expanded", "true");
    remember(OPEN, "1");
    said.textContent = `Chat with ${name} opened. Press Escape to close it.`;
    if (byVisitor) frame.focus();
  }
  function shut() {
    panel.hidden = true;
    button.setAttribute("aria-expanded", "false");
    remember(OPEN, "0");
    said.textContent = "Chat closed.";
    button.focus();
  }
  button.addEventListener("click", () => (panel.hidden ? open(true) : shut()));
  close.addEventListener("click", shut);
  document.addEventListener("keydown", (event) => { if (event.key === "Escape" && !panel.hidden) shut(); });
  // Escape pressed inside the chat: the page tells its parent (it cannot see the key otherwise).
  window.addEventListener("message", (event) => {
    if (event.origin === app.origin && event.data && event.data.type === "replica-close" && !panel.hidden) shut();
  });
  if (recall(OPEN) === "1") open(false);  // open on this page of the site if it was open on the last
})();
