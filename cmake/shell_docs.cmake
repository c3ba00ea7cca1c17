# Writes the man page and the shell completions that the binary IDEMLAB prints into OUT:
# cmake -DIDEMLAB=path/to/idemlab -DOUT=folder -P shell_docs.cmake
file(MAKE_DIRECTORY ${OUT})
execute_process(COMMAND ${IDEMLAB} manual COMMAND gzip -9n OUTPUT_FILE ${OUT}/idemlab.1.gz
                COMMAND_ERROR_IS_FATAL ANY)
foreach(shell_file bash:idemlab zsh:_idemlab fish:idemlab.fish)
  string(REPLACE ":" ";" pair ${shell_file})
  list(GET pair 0 shell)
  list(GET pair 1 file)
  execute_process(COMMAND ${IDEMLAB} completion ${shell} OUTPUT_FILE ${OUT}/${file}
                  COMMAND_ERROR_IS_FATAL ANY)
endforeach()
