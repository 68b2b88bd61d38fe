// The web door's page (table/web/pages.py): the buttons of the "session ended" dialog.
// Kept out of the page itself: the Content-Security-Policy allows no inline script.
window.addEventListener("DOMContentLoaded", () => {
  const again = document.getElementById("again");
  if (again) {
    again.addEventListener("click", () => window.location.reload());
  }
});
