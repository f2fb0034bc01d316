// Copy buttons, a progressive enhancement: without JavaScript the buttons
// stay hidden and the text can be selected by hand. The target is an
// input (its value) or any element (its text), named by data-copy.
(function () {
  "use strict";
  var buttons = document.querySelectorAll("button[data-copy]");
  if (!buttons.length || !navigator.clipboard) { return; }
  var status = document.createElement("p");
  status.className = "visually-hidden";
  status.setAttribute("role", "status");
  document.body.appendChild(status);
  Array.prototype.forEach.call(buttons, function (btn) {
    var label = btn.textContent;
    btn.hidden = false;
    btn.addEventListener("click", function () {
      var el = document.getElementById(btn.getAttribute("data-copy"));
      if (!el) { return; }
      var text = "value" in el && el.tagName !== "BUTTON" ? el.value : el.textContent;
      navigator.clipboard.writeText(text).then(function () {
        btn.textContent = "Copied";
        status.textContent = "Copied to the clipboard.";
        setTimeout(function () { btn.textContent = label; status.textContent = ""; }, 2000);
      }, function () {
        if (el.select) { el.select(); }
        status.textContent = "Copying failed; the text is selected, press Ctrl+C or Cmd+C.";
      });
    });
  });
})();
