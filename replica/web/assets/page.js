// The visitor's page: focus that stays in the box, a deep link that asks once, and a notice that
// keeps the typed text when a message cannot be sent. Plain script in <head>; it loads nothing from anywhere.
(() => {
  const MAX_QUESTION = window.REPLICA_MAX_QUESTION;  // MAX_MESSAGE_CHARS, set by the page
  const box = () => document.querySelector("#replica-input textarea");
  const sendButton = () => document.querySelector("#replica-input button.submit-button");
  const desktop = () => window.matchMedia("(pointer: fine)").matches;
  let lastSent = "";
  let refocusTimer = null;

  // After a message is sent, put the cursor back in the box as soon as Gradio enables it again, and
  // for ten seconds after, should Gradio's last updates (the send button swapped back; late on a slow
  // device) drop the focus to the page; focus the visitor moves elsewhere themselves is left alone.
  function refocusSoon() {
    clearInterval(refocusTimer);
    const until = Date.now() + 120000;
    let settled = null;
    refocusTimer = setInterval(() => {
      const b = box();
      if (Date.now() > until || (settled && Date.now() > settled)) clearInterval(refocusTimer);
      if (b && !b.disabled && desktop()) {
        const dropped = document.activeElement === document.body || document.activeElement === null;
        if (document.activeElement !== b && (!settled || dropped)) b.focus();
        settled = settled || Date.now() + 10000;
      }
    }, 100);
  }

  document.addEventListener("keydown", (event) => {
    const b = box();
    if (b && event.target === b && event.key === "Enter" && !event.shiftKey && b.value.trim()) {
      lastSent = b.value;
      sent();
    }
  }, true);
  // In the widget's panel (a frame on their own site), Escape closes the panel: the site cannot see
  // keys pressed in here, so the page tells it.
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && window.top !== window.self) window.parent.postMessage({ type: "replica-close" }, "*");
  });
  document.addEventListener("click", (event) => {
    const b = box();
    if (b && event.target.closest && event.target.closest("#replica-input button.submit-button")) {
      lastSent = b.value;
      sent();
    }
  }, true);

  // The visitor sent: the cursor goes back to the box, and a notice about the last message goes.
  function sent() {
    const notice = document.getElementById("replica-status");
    if (notice) notice.hidden = true;
    refocusSoon();
  }

  function typeInto(text) {
    const b = box();
    if (!b) return;
    b.value = text;
    b.dispatchEvent(new Event("input", { bubbles: true }));
  }

  // A line above the box that says what the page did on the visitor's behalf (read out, too).
  function showNotice(text) {
    let notice = document.getElementById("replica-status");
    if (!notice) {
      notice = document.createElement("div");
      notice.id = "replica-status";
      notice.setAttribute("role", "status");
      const input = document.getElementById("replica-input");
      (input ? input.parentNode : document.body).insertBefore(notice, input);
    }
    notice.textContent = text;
    notice.hidden = false;
    return notice;
  }

  // A message that could not be sent (the server restarting, a proxy's error, the network gone), or that
  // the line's door refused (429: its sentence says why, such as the hourly limit): say so in the page,
  // and give the visitor their words back. Nobody is turned away for a crowd: the server answers everyone
  // (a spike is answered without the model), so this is for failures and limits only.
  function showUnsent(why) {
    const words = lastSent;
    if (!words) return;
    lastSent = "";
    const notice = showNotice(why || "Your message could not be sent just now: it is still in the box. Please try again in a moment.");
    setTimeout(() => { const b = box(); if (b && !b.value) { typeInto(words); b.focus(); } }, 400);
    setTimeout(() => { notice.hidden = true; }, 60000);
  }
  // The sentence a refusal of the line's door carries (HTTP 422, as Gradio's own validators refuse an
  // input: {"detail": [{"message": "…"}]}), or "".
  async function refusal(response) {
    if (response.status !== 422) return "";
    try {
      const detail = (await response.clone().json()).detail;
      return Array.isArray(detail) ? detail.map((part) => part.message || "").join(" ").trim() : "";
    } catch (error) {
      return "";
    }
  }
  // Gradio's own hidden button that opens the box again and shows the conversation as recorded.
  function reopenSoon() {
    setTimeout(() => {
      const reopen = document.querySelector("#replica-reopen");
      if (reopen) reopen.click();
    }, 50);
  }
  const realFetch = window.fetch.bind(window);
  window.fetch = async (...args) => {
    const url = String((args[0] && args[0].url) || args[0]);
    const sending = url.includes("/queue/join") || url.includes("/run/");
    let response;
    try {
      response = await realFetch(...args);
    } catch (error) {
      if (sending) showUnsent();
      throw error;
    }
    if (sending && !response.ok) {
      const why = await refusal(response);
      showUnsent(why);
      if (why) reopenSoon();  // refused at the door: no step after it will open the box
    }
    else if (url.includes("/queue/join")) lastSent = "";  // in the server's hands now: nothing to give back
    return response;
  };

  // Whether this page may send a ?q= question by itself: as the top window, or in a frame of a site
  // named in EMBED_ORIGINS. Elsewhere a hidden frame on any page could make visitors chat.
  function mayAskAtOnce() {
    if (window.top === window.self) return true;
    const askers = window.REPLICA_ASKERS || [];
    let framers = Array.from(location.ancestorOrigins || []);
    if (!framers.length && document.referrer) {
      try { framers = [new URL(document.referrer).origin]; } catch (error) { framers = []; }
    }
    return framers.length > 0 && framers.every((origin) => askers.includes(origin));
  }

  // ?q=…: ask that question at once, once (or, framed by another site, put it in the box for the
  // visitor to send); the address loses it, so a reload does not ask again.
  const params = new URLSearchParams(location.search);
  const question = (params.get("q") || "").trim().slice(0, MAX_QUESTION);
  if (question) {
    params.delete("q");
    const rest = params.toString();
    history.replaceState(null, "", location.pathname + (rest ? "?" + rest : "") + location.hash);
    const started = Date.now();
    const ask = setInterval(() => {
      const b = box();
      const send = sendButton();
      if (Date.now() - started > 30000) clearInterval(ask);
      if (b && send && !b.disabled) {
        clearInterval(ask);
        typeInto(question);
        if (mayAskAtOnce()) setTimeout(() => { lastSent = question; send.click(); sent(); }, 100);
        else showNotice("Your question is in the box: press Enter to send it.");
      }
    }, 100);
  }
})();

// Every button has an accessible name (Gradio's send and stop icons come without one), and the
// example questions are a group of buttons (Gradio marks them as a list without list items).
(() => {
  const names = { "submit-button": "Send", "stop-button": "Stop" };
  const label = () => {
    for (const [cls, name] of Object.entries(names)) {
      document.querySelectorAll(`button.${cls}:not([aria-label])`).forEach((b) => b.setAttribute("aria-label", name));
    }
    document.querySelectorAll("#replica-chat .examples[role=list]").forEach((group) => {
      group.setAttribute("role", "group");
      group.setAttribute("aria-label", "Example questions");
    });
  };
  new MutationObserver(label).observe(document.documentElement, { childList: true, subtree: true });
})();

// The chat fills the window below the header, input included, and scrolls inside itself.
(() => {
  function fit() {
    const chat = document.getElementById("replica-chat");
    const input = document.getElementById("replica-input");
    if (!chat || !input) return;
    const chatBox = chat.getBoundingClientRect();
    const below = input.getBoundingClientRect().bottom - chatBox.bottom + 12; // the input, and a margin
    let height = Math.max(200, Math.floor(window.innerHeight - (chatBox.top + window.scrollY) - below));
    const set = (h) => { chat.style.height = h + "px"; chat.style.maxHeight = h + "px"; };
    if (chat.style.height !== height + "px") set(height);
    const overflow = document.scrollingElement.scrollHeight - window.innerHeight;  // padding below the input
    if (overflow > 0 && height - overflow >= 200) set(height - overflow);
  }
  window.addEventListener("resize", fit);
  new MutationObserver(() => requestAnimationFrame(fit)).observe(document.documentElement, { childList: true, subtree: true });
})();
