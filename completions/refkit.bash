# refkit.bash - bash completion for refkit's tools: crs-stats, crs-draw,
# crs-combat, d6-roll, fb-duel, bg-board and refkit.  Each tool answers
# for itself (TOOL --complete CWORD -- WORD..., refkit(7), "Completion");
# this only splits the line into words as the shell will pass them,
# and quotes the candidates back as the word was begun.
#
# Installed as share/bash-completion/completions/TOOL by make install; or
# for one shell:  source completions/refkit.bash

# _refkit_split TEXT: sets _refkit_words to the words of TEXT with their
# quotes removed, as the shell will pass them, and _refkit_at to where
# the last one begins in TEXT (its length when TEXT ends in a blank: a
# new word, empty so far).
_refkit_split() {
	local text=$1 ch word='' q='' in=0 i
	_refkit_words=()
	_refkit_at=${#text}
	for ((i = 0; i < ${#text}; i++)); do
		ch=${text:i:1}
		if [[ -z $q && ( $ch == ' ' || $ch == $'\t' ) ]]; then
			((in)) && _refkit_words+=("$word")
			word='' in=0
			continue
		fi
		((in)) || _refkit_at=$i
		in=1
		if [[ $q == "'" ]]; then
			[[ $ch == "'" ]] && q='' || word+=$ch
		elif [[ $ch == '\' ]]; then
			((i++))
			ch=${text:i:1}
			[[ $q == '"' && $ch != ['"$`\'] ]] && word+='\'
			word+=$ch
		elif [[ $ch == "'" && -z $q ]] || [[ $ch == '"' ]]; then
			[[ $q == "$ch" ]] && q='' || q=$ch
		else
			word+=$ch
		fi
	done
	if ((in)); then
		_refkit_words+=("$word")
	else
		_refkit_at=${#text}
	fi
}

# The completion function of every tool: complete -F _refkit TOOL.
_refkit() {
	local tool=${1:-${COMP_WORDS[0]}} line=${COMP_LINE:0:COMP_POINT}
	local rest=${COMP_LINE:COMP_POINT} raw rl pre c q cword
	local -a words after out
	_refkit_split "$line"
	words=("${_refkit_words[@]}")
	raw=${line:_refkit_at}
	# The word being completed, empty when the cursor follows a blank.
	((_refkit_at == ${#line})) && words+=("")
	cword=$((${#words[@]} - 1))
	# The words after the cursor: a --db there counts too.
	rest=${rest#"${rest%%[[:blank:]]*}"}
	_refkit_split "$rest"
	after=("${_refkit_words[@]}")
	mapfile -t out < <("$tool" --complete "$cword" -- "${words[@]}" \
	    "${after[@]}" 2>/dev/null)
	COMPREPLY=()
	# What readline replaces: the word from its last break (= : ...)
	# or inside its quote; pre is what of the word stands before it.
	rl=${2-${COMP_WORDS[COMP_CWORD]}}
	pre=${raw%"$rl"}
	[[ $raw == *"$rl" ]] || pre=''
	if [[ ${#out[@]} == 1 && ${out[0]} == $'\tfiles' ]]; then
		compopt -o filenames 2>/dev/null
		case $raw in
		[\'\"]*) ;;
		*) _refkit_split "$rl"; rl=${_refkit_words[0]-} ;;
		esac
		mapfile -t COMPREPLY < <(compgen -f -- "$rl")
		return 0
	fi
	for c in "${out[@]}"; do
		case $raw in
		\'*) q="'${c//\'/\'\\\'\'}" ;;
		\"*) q=${c//\\/\\\\}; q=${q//\"/\\\"}; q=${q//\$/\\\$}
		    q="\"${q//\`/\\\`}" ;;
		*) printf -v q '%q' "$c" ;;
		esac
		[[ $q == "$pre"* ]] || continue
		COMPREPLY+=("${q:${#pre}}")
		[[ $c == *= ]] && compopt -o nospace 2>/dev/null
	done
	return 0
}

complete -F _refkit crs-stats crs-draw crs-combat d6-roll fb-duel bg-board \
    refkit
