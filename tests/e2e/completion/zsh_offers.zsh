# zsh -f zsh_offers.zsh FPATH_DIR HITS_FILE LINE: types LINE and <TAB> into an interactive zsh
# (on a pseudo-terminal, zsh/zpty) whose completion system loads _idemlab from FPATH_DIR, and
# writes every word the completion offered to HITS_FILE, one per line. The keys after <TAB>
# (kill the line, print a marker) are read only once the completion has run, so the marker
# says it is done: no waiting on a clock.
zmodload zsh/zpty
zpty shell zsh -f -i
zpty -w shell "PROMPT='> '"
zpty -w shell "fpath=($1 \$fpath); autoload -U compinit; compinit -u -D"
zpty -w shell "compadd () { builtin compadd -O __hits \"\$@\"; print -l -- \$__hits >> $2;
  builtin compadd \"\$@\" }"
# Keys sent before zle reads the terminal meet the kernel's line editing, where ^U erases the
# line before zle ever sees it: so a key bound to a widget that prints a marker goes first, and
# the marker says zle is reading.
zpty -w shell "zle-reads () { print -n '<zle''-reads>' }; zle -N zle-reads; bindkey '^Xr' zle-reads"
zpty -w shell "print '<rea''dy>'"
zpty -r shell line '*<ready>*'
zpty -w -n shell $'\x18r'
zpty -r shell line '*<zle-reads>*'
zpty -w -n shell "$3"$'\t'
zpty -w -n shell $'\x15'
zpty -w shell "print '<do''ne>'"
zpty -r shell line '*<done>*'
zpty -d shell
