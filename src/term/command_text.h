// Shell commands printed for a person to paste (reproduce: lines, a lesson's steps): a command
// that fits stays on one line; a longer one breaks between words with a trailing backslash,
// so that pasted, at any --width, it still runs as one command with every argument whole.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace idemlab {

// An argument as a shell reads it back: as it is when it holds only plain characters, else in
// single quotes.
std::string shell_word(std::string_view arg);

// `text` (a label such as "reproduce:" or "$", then the command) broken to the output width
// between words outside quotes, each line but the last ending in " \"; the first line starts
// at `indent` spaces, the others 4 further in.
std::string command_text(std::string_view text, size_t indent = 0);

}  // namespace idemlab
