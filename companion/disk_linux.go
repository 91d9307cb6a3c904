package companion

import "syscall"

// diskSpace is the size and the free space (for an unprivileged process)
// of the file system holding path.
func diskSpace(path string) (size, free float64, ok bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil {
		return 0, 0, false
	}
	return float64(st.Blocks) * float64(st.Bsize), float64(st.Bavail) * float64(st.Bsize), true
}
