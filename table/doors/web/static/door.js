// The web door's page (table/web/pages.py): the terminal's focus, why a session ended,
// and the buttons of the "session ended" dialog. Kept out of the page itself: the
// Content-Security-Policy allows no inline script.
//
// textual.js keeps its terminal and its websocket to itself, and opens the websocket on
// the window's load, after this script ran: the WebSocket constructor is wrapped here so
// the page hears the same socket open (the terminal takes the keys then) and close (its
// reason, the door's own words, goes into the dialog).
(() => {
  const Native = window.WebSocket;

  // Keys go to the game as soon as it is there, without a click first: xterm.js's input
  // element (its helper textarea) is focused once the socket is open (a focus before
  // would send the game a "focus" on a socket still connecting).
  const focusTerminal = () => {
    const input = document.querySelector("#terminal textarea");
    if (input && !document.body.classList.contains("-closed")) {
      input.focus({ preventScroll: true });
    }
  };

  const sayWhy = (reason) => {
    const why = document.getElementById("why");
    if (why && reason) {
      why.textContent = reason.charAt(0).toUpperCase() + reason.slice(1) + ".";
    }
  };

  class DoorSocket extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("open", () => setTimeout(focusTerminal, 0));
      this.addEventListener("close", (event) => sayWhy(event.reason));
    }
  }
  window.WebSocket = DoorSocket;

  // Back to this tab from another window or tab: the keys are the game's again.
  window.addEventListener("focus", () => {
    if (document.body.classList.contains("-loaded")) {
      focusTerminal();
    }
  });

  window.addEventListener("DOMContentLoaded", () => {
    const again = document.getElementById("again");
    if (again) {
      again.addEventListener("click", () => window.location.reload());
    }
  });
})();
