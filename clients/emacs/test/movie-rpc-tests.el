;;; movie-rpc-tests.el --- ERT tests of movie-rpc.el against the real server  -*- lexical-binding: t; -*-

;; SPDX-License-Identifier: Apache-2.0

;;; Commentary:

;; Run by scripts/emacs-tests.sh:
;;
;;   MOVIE_RPC_BIN=/abs/movie-rpc emacs --batch -Q -L clients/emacs \
;;     -l clients/emacs/test/movie-rpc-tests.el -f ert-run-tests-batch-and-exit
;;
;; Each test starts the server on a fresh data directory without TMDB
;; credentials, so the demo catalog answers.  Waiting is for answers,
;; never for a fixed time.

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'movie-rpc)

(defvar movie-rpc-test--messages nil
  "Messages shown while a test ran, newest first.")

(defun movie-rpc-test--wait (predicate &optional what)
  "Process server output until PREDICATE is non-nil; fail naming WHAT after 60 s."
  (let ((deadline (+ (float-time) 60)))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (should (or (funcall predicate) (progn (message "timed out waiting for %s; messages: %S" what
                                                    movie-rpc-test--messages)
                                           nil)))))

(defun movie-rpc-test--message-matching (regexp)
  "The first message shown that matches REGEXP, or nil."
  (seq-find (lambda (text) (string-match-p regexp text)) movie-rpc-test--messages))

(defmacro movie-rpc-test--with-server (&rest body)
  "Run BODY against a fresh server on a fresh data directory."
  (declare (indent 0))
  `(let* ((binary (getenv "MOVIE_RPC_BIN"))
          (home (make-temp-file "movie-rpc-emacs-" t))
          (process-environment (seq-remove (lambda (entry) (string-prefix-p "TMDB_" entry))
                                           process-environment))
          (movie-rpc-command binary)
          (movie-rpc-environment `(("MOVIE_RPC_HOME" . ,home) ("MOVIE_RPC_PASSWORD_ITERATIONS" . "1000")))
          (movie-rpc-region "US")
          (movie-rpc-test--messages nil))
     (unless (and binary (file-executable-p binary))
       (ert-skip "MOVIE_RPC_BIN does not name the server binary"))
     (cl-letf* ((real-message (symbol-function 'message))
                ((symbol-function 'message)
                 (lambda (format-string &rest args)
                   (when format-string
                     (push (apply #'format format-string args) movie-rpc-test--messages))
                   (apply real-message format-string args))))
       (unwind-protect
           (progn ,@body)
         (movie-rpc-stop)
         (dolist (buffer (buffer-list))
           (when (string-prefix-p "*movie-rpc" (buffer-name buffer))
             (kill-buffer buffer)))
         (delete-directory home t)))))

(defun movie-rpc-test--entries (buffer &optional at-least)
  "Wait until list BUFFER has AT-LEAST (default 1) rows; return them."
  (movie-rpc-test--wait (lambda () (and (buffer-live-p buffer)
                                        (>= (length (buffer-local-value 'tabulated-list-entries buffer))
                                            (or at-least 1))))
                        (format "rows in %s" buffer))
  (buffer-local-value 'tabulated-list-entries buffer))

(defun movie-rpc-test--header (buffer)
  "The title line of list BUFFER."
  (with-current-buffer buffer
    (save-excursion (goto-char (point-min)) (buffer-substring-no-properties (point) (line-end-position)))))

(defun movie-rpc-test--first-row ()
  "Move to the first row of the list in the current buffer."
  (goto-char (point-min))
  (forward-line 1))

(defun movie-rpc-test--sync-request (method params)
  "METHOD with PARAMS, waited for (tests only; the package never blocks)."
  (jsonrpc-request (movie-rpc--connection) (intern method) params :timeout 60))

(ert-deftest movie-rpc-test-popular-pages ()
  "Popular movies: 20 rows of title, year, rating; n and p change the page."
  (movie-rpc-test--with-server
    (let* ((buffer (movie-rpc-popular))
           (rows (movie-rpc-test--entries buffer 20))
           (first (aref (cadr (car rows)) 0)))
      (should (= (length rows) 20))
      (should (string-match-p "\\`Popular movies · page 1/" (movie-rpc-test--header buffer)))
      (should (string-match-p "\\`[0-9]\\{4\\}\\'" (aref (cadr (car rows)) 1)))
      (should (string-match-p "\\`[0-9]+\\.[0-9]\\'" (aref (cadr (car rows)) 2)))
      (with-current-buffer buffer
        (should (eq major-mode 'movie-rpc-list-mode))
        (movie-rpc-test--first-row)
        (execute-kbd-macro (kbd "n"))
        (movie-rpc-test--wait (lambda () (string-match-p "page 2/" (movie-rpc-test--header buffer))) "page 2")
        (should-not (equal (aref (cadr (car tabulated-list-entries)) 0) first))
        (execute-kbd-macro (kbd "p"))
        (movie-rpc-test--wait (lambda () (string-match-p "page 1/" (movie-rpc-test--header buffer))) "page 1")
        (should (equal (aref (cadr (car tabulated-list-entries)) 0) first))
        (execute-kbd-macro (kbd "p"))
        (should (movie-rpc-test--message-matching "already on the first page"))))))

(ert-deftest movie-rpc-test-details-from-a-list ()
  "RET shows the details buffer: title, rating, genres, overview; no error."
  (movie-rpc-test--with-server
    (let* ((buffer (movie-rpc-popular))
           (rows (movie-rpc-test--entries buffer 20))
           (title (aref (cadr (car rows)) 0)))
      (with-current-buffer buffer
        (movie-rpc-test--first-row)
        (execute-kbd-macro (kbd "RET")))
      (movie-rpc-test--wait (lambda () (get-buffer "*movie-rpc details*")) "the details buffer")
      (with-current-buffer "*movie-rpc details*"
        (should (eq major-mode 'movie-rpc-details-mode))
        (should (string-prefix-p title (buffer-string)))
        (should (string-match-p "^Rating: [0-9.]+/10" (buffer-string)))
        (should (string-match-p "^Genres: " (buffer-string)))
        (should (> (length (buffer-string)) 200)))
      ;; The demo catalog has no credits or videos: the plain details, without an error.
      (should-not (movie-rpc-test--message-matching "^movie-rpc: .*\\(demo\\|include\\|nvalid\\)")))))

(ert-deftest movie-rpc-test-genres ()
  "The genres are offered with `completing-read'; the chosen one's movies are listed."
  (movie-rpc-test--with-server
    (let (offered)
      (cl-letf (((symbol-function 'completing-read)
                 (lambda (_prompt collection &rest _) (setq offered (mapcar #'car collection)) "Drama")))
        (movie-rpc-genres)
        (movie-rpc-test--wait (lambda () (get-buffer "*movie-rpc Drama*")) "the Drama list"))
      (should (= (length offered) 19))
      (should (member "Science Fiction" offered))
      (let ((buffer (get-buffer "*movie-rpc Drama*")))
        (movie-rpc-test--entries buffer)
        (should (string-match-p "\\`Drama movies · page 1/" (movie-rpc-test--header buffer)))))))

(ert-deftest movie-rpc-test-accounts-and-favorites ()
  "Register, toggle a favorite (the ♥ column), list favorites, log out, log in."
  (movie-rpc-test--with-server
    (cl-letf (((symbol-function 'read-passwd) (lambda (&rest _) "secret-1"))
              ((symbol-function 'read-string) (lambda (&rest _) "ada@example.com")))
      (call-interactively #'movie-rpc-register))
    (movie-rpc-test--wait (lambda () (movie-rpc-test--message-matching "logged in as ada@example.com"))
                          "the registration")
    (let* ((buffer (movie-rpc-popular))
           (rows (movie-rpc-test--entries buffer 20))
           (id (car (car rows))))
      (should (equal (aref (cadr (car rows)) 3) ""))
      (with-current-buffer buffer
        (movie-rpc-test--first-row)
        (execute-kbd-macro (kbd "f"))
        (movie-rpc-test--wait (lambda () (equal (aref (cadr (car tabulated-list-entries)) 3) "♥")) "the heart"))
      (let ((favorites (movie-rpc-favorites)))
        (should (equal (mapcar #'car (movie-rpc-test--entries favorites)) (list id))))
      ;; f in the details buffer toggles too: off, then on again.
      (movie-rpc-details id)
      (movie-rpc-test--wait (lambda () (get-buffer "*movie-rpc details*")) "the details buffer")
      (with-current-buffer "*movie-rpc details*"
        (execute-kbd-macro (kbd "f")))
      (movie-rpc-test--wait (lambda () (movie-rpc-test--message-matching "removed from your favorites"))
                            "the removal from the details buffer")
      (movie-rpc-test--wait (lambda () (equal (aref (cadr (car (buffer-local-value 'tabulated-list-entries buffer))) 3)
                                              ""))
                            "the list's heart gone")
      (with-current-buffer "*movie-rpc details*"
        (execute-kbd-macro (kbd "f")))
      (movie-rpc-test--wait (lambda () (equal (aref (cadr (car (buffer-local-value 'tabulated-list-entries buffer))) 3)
                                              "♥"))
                            "the list's heart back")
      (movie-rpc-logout)
      (movie-rpc-test--wait (lambda () (movie-rpc-test--message-matching "logged out")) "the logout")
      (movie-rpc-test--wait (lambda () (equal (aref (cadr (car (buffer-local-value 'tabulated-list-entries buffer))) 3)
                                              ""))
                            "hearts gone after the logout")
      (cl-letf (((symbol-function 'read-passwd) (lambda (&rest _) "wrong"))
                ((symbol-function 'read-string) (lambda (&rest _) "ada@example.com")))
        (call-interactively #'movie-rpc-login))
      (movie-rpc-test--wait (lambda () (movie-rpc-test--message-matching "^movie-rpc: Email or password"))
                            "the server's message for a wrong password")
      (movie-rpc-login "ada@example.com" "secret-1")
      (movie-rpc-test--wait (lambda () (equal (aref (cadr (car (buffer-local-value 'tabulated-list-entries buffer))) 3)
                                              "♥"))
                            "the heart back after the login"))))

(ert-deftest movie-rpc-test-errors-in-the-echo-area ()
  "An error answer is shown with the server's message."
  (movie-rpc-test--with-server
    (movie-rpc-details 987654321)
    (movie-rpc-test--wait (lambda () (movie-rpc-test--message-matching "^movie-rpc: ")) "the error")
    (should (movie-rpc-test--message-matching "^movie-rpc: .*[Nn]ot found"))))

(ert-deftest movie-rpc-test-sync-progress ()
  "`movie-rpc-sync' shows each $/progress, then a summary."
  (movie-rpc-test--with-server
    (movie-rpc-sync 2)
    (movie-rpc-test--wait (lambda () (movie-rpc-test--message-matching "sync done")) "the sync")
    (should (movie-rpc-test--message-matching "^movie-rpc: sync 1/3 "))
    (should (movie-rpc-test--message-matching "^movie-rpc: sync 3/3 "))
    (should (movie-rpc-test--message-matching "sync done: 3 of 3 items, 2 pages"))))

(ert-deftest movie-rpc-test-events ()
  "The activity log lists what was done, newest first; a run of the same event shows how many times."
  (movie-rpc-test--with-server
    (movie-rpc-test--entries (movie-rpc-popular) 20)
    (let* ((buffer (movie-rpc-events))
           (rows (movie-rpc-test--entries buffer)))
      (should (equal (aref (cadr (car rows)) 1) "popular.opened"))
      (should (equal (aref (cadr (car rows)) 2) "page=1")))
    (movie-rpc-test--sync-request "movies.popular" '(:page 1))
    (let* ((buffer (movie-rpc-events))
           (rows (movie-rpc-test--entries buffer)))
      (should (equal (aref (cadr (car rows)) 1) "popular.opened ×2")))))

(ert-deftest movie-rpc-test-search ()
  "`movie-rpc-search' lists `movies.search' results (skipped without the method)."
  (movie-rpc-test--with-server
    (let ((methods (mapcar (lambda (m) (plist-get m :name))
                           (append (plist-get (movie-rpc-test--sync-request "rpc.discover" nil) :methods) nil))))
      (unless (member "movies.search" methods)
        (movie-rpc-search "fight")
        (movie-rpc-test--wait (lambda () (movie-rpc-test--message-matching "does not offer movies.search"))
                              "the missing-method message")
        (ert-skip "this server's rpc.discover does not list movies.search"))
      (let* ((buffer (movie-rpc-search "fight club"))
             (rows (movie-rpc-test--entries buffer)))
        (should (string-match-p "\\`Search \"fight club\"" (movie-rpc-test--header buffer)))
        (should (member "Fight Club" (mapcar (lambda (row) (aref (cadr row) 0)) rows)))))))

(ert-deftest movie-rpc-test-details-extras ()
  "Cast, director, trailer and the region's providers are shown when the answer has them."
  (movie-rpc-test--with-server
    (let ((movie-rpc-region "US"))
      (movie-rpc--show-details
       (list :id 550 :title "Fight Club" :releaseDate "1999-10-15" :voteAverage 8.4 :voteCount 10 :runtime 139
             :genres [(:id 18 :name "Drama")] :overview "An office worker." :certification "R"
             :credits (list :cast [(:name "Brad Pitt" :character "Tyler Durden" :order 1)
                                   (:name "Edward Norton" :character "The Narrator" :order 0)]
                            :crew [(:name "David Fincher" :job "Director") (:name "Jim Uhls" :job "Screenplay")])
             :videos [(:type "Clip" :url "https://www.youtube.com/watch?v=c1")
                      (:type "Trailer" :url "https://www.youtube.com/watch?v=SUXWAEX2jlg")]
             :watchProviders (list :US (list :flatrate [(:name "Netflix")] :rent [(:name "Apple TV")] :buy [])
                                   :DE (list :flatrate [(:name "Amazon Prime Video")]))))
      (with-current-buffer "*movie-rpc details*"
        (let ((text (buffer-string)))
          (should (string-match-p "^Director: David Fincher$" text))
          (should (string-match-p "^Cast: Edward Norton (The Narrator), Brad Pitt (Tyler Durden)$" text))
          (should (string-match-p "^Trailer: https://www.youtube.com/watch\\?v=SUXWAEX2jlg$" text))
          (should (string-match-p "^Watch (US): Stream: Netflix · Rent: Apple TV$" text))
          (should (string-match-p "^Rated: R (US)$" text))
          (should-not (string-match-p "Amazon" text))))
      (movie-rpc--show-details (list :id 1 :title "Plain" :releaseDate "" :overview ""))
      (with-current-buffer "*movie-rpc details*"
        (should-not (string-match-p "^\\(Director\\|Cast\\|Trailer\\|Watch\\|Rated\\):" (buffer-string)))))))

(ert-deftest movie-rpc-test-hostile-titles-stay-on-one-line ()
  "Titles with a newline, NUL or escape are drawn on one line each, sanitised."
  (movie-rpc-test--with-server
    (with-temp-buffer
      (movie-rpc-list-mode)
      (setq movie-rpc--view
            (list :kind 'movies :title "Hostile\nheader %s" :hearts (make-hash-table)
                  :answer (list :page 1 :totalPages 1 :totalResults 3)
                  :movies (list (list :id 1 :title "Two\nLines" :releaseDate "2001-01-01" :voteAverage 7.1)
                                (list :id 2 :title "Nul\0Byte" :releaseDate "2002-02-02" :voteAverage 6.2)
                                (list :id 3 :title "Esc\e[31mRed\r" :releaseDate "2003-03-03" :voteAverage 5.3))))
      (movie-rpc--render (current-buffer))
      (should (= (count-lines (point-min) (point-max)) 4))  ; the title line and a line per movie
      (should-not (string-match-p "[\0-\11\13-\37\177]" (buffer-substring-no-properties (point-min) (point-max))))
      (goto-char (point-min))
      (should (search-forward "Two Lines" nil t))
      (should (search-forward "Nul Byte" nil t))
      (should (equal (movie-rpc-test--header (current-buffer)) "Hostile header %s · page 1/1 · 3 movies ")))))

(defconst movie-rpc-test--root
  (expand-file-name "../../.." (file-name-directory (or load-file-name buffer-file-name)))
  "The repository's root directory.")

(defun movie-rpc-test--readme-snippet (index)
  "The INDEX-th (from 0) elisp block of the README's Emacs section, paths filled in."
  (with-temp-buffer
    (insert-file-contents (expand-file-name "README.md" movie-rpc-test--root))
    (should (re-search-forward "^### Emacs$" nil t))
    (dotimes (_ (1+ index))
      (should (search-forward "\n```elisp\n" nil t)))
    (let ((start (point)))
      (should (search-forward "\n```" nil t))
      (replace-regexp-in-string
       "/abs/path/movie-rpc" (getenv "MOVIE_RPC_BIN")
       (replace-regexp-in-string "/abs/path/to/repo" (directory-file-name movie-rpc-test--root)
                                 (buffer-substring-no-properties start (match-beginning 0)) t t)
       t t))))

(defun movie-rpc-test--run-setup (snippet emacs-arguments)
  "Evaluate SNIPPET in a fresh Emacs started with EMACS-ARGUMENTS, then list popular movies.
Return the exit status and what it printed."
  (let* ((home (make-temp-file "movie-rpc-readme-" t))
         (check (format "(progn %s
                  (setq movie-rpc-environment (list (cons \"MOVIE_RPC_HOME\" %S)))
                  (let ((buffer (call-interactively (quote movie-rpc-popular))) (deadline (+ (float-time) 60)))
                    (while (and (null (buffer-local-value (quote tabulated-list-entries) buffer))
                                (< (float-time) deadline))
                      (accept-process-output nil 0.05))
                    (princ (format \"rows: %%d\" (length (buffer-local-value (quote tabulated-list-entries)
                                                                             buffer))))))"
                        snippet home)))
    (unwind-protect
        (with-temp-buffer
          (let ((status (apply #'call-process (expand-file-name invocation-name invocation-directory) nil
                               (list t nil) nil (append emacs-arguments (list "--eval" check)))))
            (list status (buffer-string))))
      (delete-directory home t))))

(ert-deftest movie-rpc-test-readme-load-path-setup ()
  "The README's `load-path' setup, as written, works in a bare Emacs (emacs -Q)."
  (unless (and (getenv "MOVIE_RPC_BIN") (file-executable-p (getenv "MOVIE_RPC_BIN")))
    (ert-skip "MOVIE_RPC_BIN does not name the server binary"))
  (should (equal (movie-rpc-test--run-setup (movie-rpc-test--readme-snippet 0) '("--batch" "-Q"))
                 '(0 "rows: 20"))))

(ert-deftest movie-rpc-test-readme-use-package-setup ()
  "The README's `use-package' setup, as written, works in an Emacs that has use-package.
That Emacs loads the site files (Debian's elpa-use-package, or Emacs 29's own), as a user's does."
  (unless (and (getenv "MOVIE_RPC_BIN") (file-executable-p (getenv "MOVIE_RPC_BIN")))
    (ert-skip "MOVIE_RPC_BIN does not name the server binary"))
  (let ((probe (with-temp-buffer
                 (call-process (expand-file-name invocation-name invocation-directory) nil (list t nil) nil
                               "--batch" "--eval" "(package-initialize)"
                               "--eval" "(princ (if (require 'use-package nil t) \"yes\" \"no\"))")
                 (buffer-string))))
    (unless (equal probe "yes")
      (ert-skip "use-package is not installed (Emacs 29 has it; Debian 12: apt install elpa-use-package)")))
  ;; :commands makes the commands autoloads: nothing is loaded before the first one is called.
  (should (equal (movie-rpc-test--run-setup
                  (concat (movie-rpc-test--readme-snippet 1) " (when (featurep 'movie-rpc) (error \"loaded early\"))")
                  ;; An interactive Emacs activates its packages before init.el; --batch does not.
                  '("--batch" "--eval" "(package-initialize)"))
                 '(0 "rows: 20"))))

(provide 'movie-rpc-tests)
;;; movie-rpc-tests.el ends here
